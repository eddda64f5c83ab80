/**
 * JMH microbenchmarks of the kernels: gemm ({@code GemmBenchmark}), convolution ({@code ConvBenchmark}), the image
 * augmentations ({@code AugmentBenchmark}), dropout ({@code DropoutBenchmark}) and the fused optimizer steps
 * ({@code OptimizerBenchmark}), built into {@code benchmarks.jar}.
 *
 * <p>Not a library API; a development tool.
 */
package dev.brisk.bench;
