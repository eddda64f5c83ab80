/**
 * Brisk's ONNX export: {@code dev.brisk.onnx.OnnxExport} writes a model's inference graph as an ONNX model (opset 17,
 * IR version 8) for ONNX Runtime and the other ONNX tools. A module of its own so that {@code brisk-core} needs no
 * protobuf runtime; the classes generated from ONNX's schema ({@code dev.brisk.onnx.proto}) stay inside it.
 */
module dev.brisk.onnx {
    requires dev.brisk.core;
    // protobuf-java names the automatic module com.google.protobuf in its manifest.
    requires com.google.protobuf;

    exports dev.brisk.onnx;
}
