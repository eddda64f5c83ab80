/**
 * The kernel SPI: {@link dev.brisk.backend.Kernels} is every numeric kernel a graph needs (gemm, elementwise,
 * reductions, softmax, convolution, pooling, dropout, fused optimizer steps), and {@link dev.brisk.backend.Backends}
 * picks the Vector API kernels, or the scalar ones when the Vector API is absent, and says why. Two small types go
 * with every kernel call: {@link dev.brisk.backend.KernelTimer} is told the time of each call of a profiled step,
 * and {@link dev.brisk.backend.EagerBuffers} is the output storage an eager graph recycles from step to step
 * ({@code Graph.eager(kernels, buffers, timer)}).
 *
 * <p>SPI for backend authors; the layer above {@code ops}. Implementations live in the internal
 * {@code backend.jvm} package.
 */
package dev.brisk.backend;
