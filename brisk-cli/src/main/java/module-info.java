/**
 * The {@code brisk} command line: {@code train}, {@code bench}, {@code scaling} and {@code info}. It exports
 * nothing; {@code dev.brisk.cli.BriskCommand} is the entry point. The launcher runs it from the shaded jar on the
 * class path, where this descriptor is ignored; on the module path it reads what it requires here.
 */
module dev.brisk.cli {
    requires dev.brisk.core;
    requires dev.brisk.plot;
    // Whole-model .keras files: train --save, evaluate, predict, summary.
    requires dev.brisk.keras;
    // ONNX export: train --onnx, export.
    requires dev.brisk.onnx;
    requires org.apache.commons.cli;
    // Optional: info describes the Vector API's preferred vector size when the incubator module is present.
    requires static jdk.incubator.vector;
    // JitClock reads the JIT compilers' time (java.lang.management).
    requires java.management;
    // brisk train --master: brisk-spark's implementation, when it is on the path.
    uses dev.brisk.cli.ClusterTraining;
}
