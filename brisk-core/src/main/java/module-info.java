/**
 * Brisk's core: tensors, the op graph and autodiff, eager and compiled execution, the JVM kernels, the Keras-style
 * model API, data readers and weights files. It depends on the JDK only.
 *
 * <p>Exported packages are the public API, plus three SPI packages for authors of custom layers ({@code graph},
 * {@code ops}) and of backends ({@code backend}). The execution engine ({@code exec}, {@code eager}) and the JVM
 * kernels ({@code backend.jvm}) are internal and not exported.
 */
module dev.brisk.core {
    // Optional: the vector kernels need the incubating Vector API. Without it (no --add-modules
    // jdk.incubator.vector) Backends falls back to the scalar kernels, which never link the Vector API.
    requires static jdk.incubator.vector;
    // ImageDecoder decodes PNG and JPEG files with javax.imageio.
    requires java.desktop;
    // CpuTime reads process and per-thread CPU time (com.sun.management); Autotuner reads thread CPU time.
    requires jdk.management;

    exports dev.brisk.config;
    exports dev.brisk.tensor;
    exports dev.brisk.parallel;
    exports dev.brisk.distribute;
    exports dev.brisk.io;
    exports dev.brisk.io.tensorboard;
    exports dev.brisk.profile;
    exports dev.brisk.data;
    exports dev.brisk.data.preprocessing;
    exports dev.brisk.losses;
    exports dev.brisk.metrics;
    exports dev.brisk.optimizers;
    exports dev.brisk.callbacks;
    exports dev.brisk.nn;
    exports dev.brisk.nn.layers;

    // SPI: the op IR and graph builder for custom layers, losses and optimizers; the kernel SPI for backends.
    exports dev.brisk.ops;
    exports dev.brisk.ops.image;
    exports dev.brisk.graph;
    exports dev.brisk.backend;
}
