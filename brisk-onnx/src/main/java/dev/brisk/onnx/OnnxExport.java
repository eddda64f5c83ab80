package dev.brisk.onnx;

import dev.brisk.io.AtomicFiles;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.onnx.proto.ModelProto;
import dev.brisk.onnx.proto.OperatorSetIdProto;
import dev.brisk.onnx.proto.TensorProto;
import dev.brisk.onnx.proto.TensorShapeProto;
import dev.brisk.onnx.proto.TypeProto;
import dev.brisk.onnx.proto.ValueInfoProto;
import dev.brisk.ops.Node;
import dev.brisk.tensor.DType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a Brisk model as an ONNX model for inference: {@code OnnxExport.export(model, Path.of("m.onnx"))}.
 *
 * <p>What is written: the graph {@code predict} runs (dropout off, batch normalization with its moving statistics),
 * translated op by op into ONNX operators of opset {@value #OPSET} (IR version {@value #IR_VERSION}), with the weights
 * as initializers. The inputs and outputs keep the model's names and shapes, Brisk's layouts (images NHWC, sequences
 * {@code (batch, steps, features)}, token ids int32) and take any batch size (the dynamic dimension {@code batch});
 * an axis the model leaves open ({@code Shape.OPEN}, Keras' {@code None}) takes any length (the dynamic dimension
 * {@code length}), as {@code torch.onnx.export}'s {@code dynamic_axes} does: every size that depends on it is computed
 * from the input's shape at run time. A layer that cannot be written for any length is refused, naming it.
 * Anything the exporter cannot translate exactly (an op, an element function, an attribute field it does not know)
 * is an {@link OnnxExportException} naming the layer; no file is written then.
 *
 * <p>The weights are read as they are when {@code export} is called; do not export a model while it trains.
 */
public final class OnnxExport {
    /** The ONNX operator set the exported models import (the default domain, {@code ai.onnx}). */
    public static final int OPSET = 17;
    /** The ONNX IR version the exported models follow. */
    public static final int IR_VERSION = 8;
    /** The name of the dynamic batch dimension of the inputs and outputs. */
    public static final String BATCH = "batch";
    /**
     * The name of the dynamic dimension of a model's open axis ({@code Shape.OPEN}, Keras' {@code None}) when it
     * has one; with several, each is named after its input and axis, {@code tokens_axis1}.
     */
    public static final String LENGTH = "length";

    private OnnxExport() {
    }

    /**
     * Writes {@code model} to {@code path} as an ONNX model (a temporary file, renamed when complete).
     *
     * @param model a built model
     * @param path the file to write, usually {@code *.onnx}
     * @throws IOException if the file cannot be written
     * @throws OnnxExportException if the model has a layer, op or attribute without an exact ONNX translation
     */
    public static void export(Model model, Path path) throws IOException {
        byte[] bytes = toBytes(model);
        AtomicFiles.write(path, out -> out.write(bytes));
    }

    /**
     * The ONNX model of {@code model}, serialized.
     *
     * @param model a built model
     * @return the bytes of the {@code .onnx} file
     * @throws OnnxExportException if the model has a layer, op or attribute without an exact ONNX translation
     */
    public static byte[] toBytes(Model model) {
        return toProto(model).toByteArray();
    }

    static ModelProto toProto(Model model) {
        InferenceTrace trace = InferenceTrace.of(model);
        OnnxGraph graph = new OnnxGraph();
        NodeTranslator translator = new NodeTranslator(trace, graph);
        List<SymbolicTensor> inputs = model.inputs();
        for (int i = 0; i < inputs.size(); i++) {
            Node in = trace.inputs().get(i);
            String name = graph.uniqueName(inputs.get(i).layer().name());
            graph.proto().addInput(valueInfo(name, in, trace));
            translator.bind(in, name);
        }
        Set<Node> inputNodes = new HashSet<>(trace.inputs());
        for (Node n : trace.nodes()) {
            if (trace.isLive(n) && !inputNodes.contains(n)) {
                translator.translate(n);
            }
        }
        List<SymbolicTensor> outputs = model.outputs();
        for (int i = 0; i < outputs.size(); i++) {
            Node out = trace.outputs().get(i);
            // An Identity gives each output the name of the layer that makes it, whatever node computed it.
            String name = graph.node("Identity", outputs.get(i).layer().name(), List.of(translator.value(out)));
            graph.proto().addOutput(valueInfo(name, out, trace));
        }
        graph.proto().setName(model.name());
        return ModelProto.newBuilder()
                .setIrVersion(IR_VERSION)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(OPSET))
                .setProducerName("brisk")
                .setProducerVersion(producerVersion())
                .setDocString("Inference graph of Brisk model '" + model.name() + "'")
                .setGraph(graph.proto())
                .build();
    }

    private static ValueInfoProto valueInfo(String name, Node n, InferenceTrace trace) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (SymbolicDim dim : trace.dims(n)) {
            TensorShapeProto.Dimension.Builder d = TensorShapeProto.Dimension.newBuilder();
            if (dim.isFixed()) {
                d.setDimValue(dim.value());
            } else if (dim.isProduct()) {
                d.setDimParam(dimName(dim, trace));
            } // an irregular size (a pooled length) is left unnamed: ONNX's unknown dimension
            shape.addDim(d);
        }
        int type = n.dtype() == DType.INT32 ? TensorProto.DataType.INT32_VALUE : TensorProto.DataType.FLOAT_VALUE;
        return ValueInfoProto.newBuilder().setName(name)
                .setType(TypeProto.newBuilder().setTensorType(
                        TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape)))
                .build();
    }

    /**
     * A product of dynamic sizes as the ONNX dimension's name: {@code batch}, {@code length}, {@code batch*length},
     * {@code 2*length}.
     */
    private static String dimName(SymbolicDim dim, InferenceTrace trace) {
        StringBuilder sb = new StringBuilder(dim.factor() == 1 ? "" : dim.factor() + "*");
        List<InferenceTrace.OpenAxis> symbols = trace.symbols();
        String sep = "";
        for (int j = 0; j < symbols.size(); j++) {
            if ((dim.symbols() & 1 << j) != 0) {
                sb.append(sep).append(symbols.get(j).name());
                sep = "*";
            }
        }
        return sb.toString();
    }

    private static String producerVersion() {
        String v = OnnxExport.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }
}
