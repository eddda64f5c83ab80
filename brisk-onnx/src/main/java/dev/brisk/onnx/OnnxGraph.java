package dev.brisk.onnx;

import com.google.protobuf.ByteString;
import dev.brisk.onnx.proto.AttributeProto;
import dev.brisk.onnx.proto.GraphProto;
import dev.brisk.onnx.proto.NodeProto;
import dev.brisk.onnx.proto.TensorProto;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.Set;

/**
 * The ONNX graph being written: nodes in order, initializers (weights and constants), and unique value names. Keeps
 * the small shared constants (shape vectors, axes, scalars) once each.
 */
final class OnnxGraph {
    private final GraphProto.Builder graph = GraphProto.newBuilder();
    /** Where initializers go: this graph's own, or the main graph's for a subgraph. */
    private final GraphProto.Builder constants;
    private final Set<String> names;
    private final Map<String, String> sharedConstants;

    /** The main graph. */
    OnnxGraph() {
        this.constants = graph;
        this.names = new HashSet<>();
        this.sharedConstants = new HashMap<>();
    }

    /**
     * A subgraph (a Scan's body) inside {@code outer}: its nodes are its own, while its weights and constants are the
     * main graph's initializers, read from the outer scope as ONNX allows, and its value names are unique among the
     * main graph's too.
     *
     * @param outer the graph it belongs to
     */
    OnnxGraph(OnnxGraph outer) {
        this.constants = outer.constants;
        this.names = outer.names;
        this.sharedConstants = outer.sharedConstants;
    }

    /**
     * The graph built so far.
     *
     * @return the builder
     */
    GraphProto.Builder proto() {
        return graph;
    }

    /**
     * A value name not used yet: {@code base}, or {@code base} with a numeric suffix.
     *
     * @param base the preferred name
     * @return a unique name
     */
    String uniqueName(String base) {
        String name = base.isEmpty() ? "value" : base;
        for (int i = 1; !names.add(name); i++) {
            name = base + "_" + i;
        }
        return name;
    }

    /**
     * Adds a node with one output.
     *
     * @param opType the ONNX operator
     * @param outputBase the preferred name of its output
     * @param inputs its input value names ("" for an optional input left out)
     * @param attributes its attributes
     * @return the output's name
     */
    String node(String opType, String outputBase, List<String> inputs, AttributeProto... attributes) {
        return nodeWithOutputs(opType, outputBase, inputs, 1, attributes).get(0);
    }

    /**
     * Adds a node with several outputs.
     *
     * @param opType the ONNX operator
     * @param outputBase the preferred name of its outputs (suffixed with their index after the first)
     * @param inputs its input value names ("" for an optional input left out)
     * @param outputs how many outputs it has
     * @param attributes its attributes
     * @return the outputs' names
     */
    List<String> nodeWithOutputs(String opType, String outputBase, List<String> inputs, int outputs,
                                 AttributeProto... attributes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < outputs; i++) {
            out.add(uniqueName(i == 0 ? outputBase : outputBase + ":" + i));
        }
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(opType).setName(out.get(0))
                .addAllInput(inputs).addAllOutput(out);
        for (AttributeProto a : attributes) {
            n.addAttribute(a);
        }
        graph.addNode(n);
        return out;
    }

    /**
     * Adds a weight or constant as an initializer.
     *
     * @param base the preferred name
     * @param value the tensor (FLOAT32 or INT32)
     * @return its value name
     */
    String initializer(String base, Tensor value) {
        String name = uniqueName(base);
        constants.addInitializer(tensor(name, value));
        return name;
    }

    /**
     * Adds a float initializer of the given dims.
     *
     * @param base the preferred name
     * @param values the elements, row-major
     * @param dims the dims
     * @return its value name
     */
    String floatInitializer(String base, float[] values, long... dims) {
        String name = uniqueName(base);
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            bytes.putFloat(v);
        }
        constants.addInitializer(TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT_VALUE)
                .addAllDims(boxed(dims)).setRawData(ByteString.copyFrom(bytes.array())));
        return name;
    }

    /**
     * A 1-D int64 constant (shapes, axes, starts and ends), shared by every node that needs the same values.
     *
     * @param values the elements
     * @return its value name
     */
    String int64s(long... values) {
        StringBuilder key = new StringBuilder("i64");
        for (long v : values) {
            key.append(',').append(v);
        }
        return sharedConstants.computeIfAbsent(key.toString(), k -> {
            String name = uniqueName("const_i64_" + names.size());
            ByteBuffer bytes = ByteBuffer.allocate(values.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            for (long v : values) {
                bytes.putLong(v);
            }
            constants.addInitializer(TensorProto.newBuilder().setName(name)
                    .setDataType(TensorProto.DataType.INT64_VALUE).addDims(values.length)
                    .setRawData(ByteString.copyFrom(bytes.array())));
            return name;
        });
    }

    /**
     * An int64 scalar constant (Range's bounds), shared by every node that needs the same value.
     *
     * @param value the value
     * @return its value name
     */
    String int64Scalar(long value) {
        return scalar("i64s", value, TensorProto.DataType.INT64_VALUE,
                ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value));
    }

    /**
     * A float scalar constant, shared by every node that needs the same value.
     *
     * @param value the value
     * @return its value name
     */
    String floatScalar(float value) {
        return scalar("f32", Float.floatToRawIntBits(value), TensorProto.DataType.FLOAT_VALUE,
                ByteBuffer.allocate(Float.BYTES).order(ByteOrder.LITTLE_ENDIAN).putFloat(value));
    }

    /**
     * An int32 scalar constant, shared by every node that needs the same value.
     *
     * @param value the value
     * @return its value name
     */
    String int32Scalar(int value) {
        return scalar("i32", value, TensorProto.DataType.INT32_VALUE,
                ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value));
    }

    /** A scalar initializer of {@code type} holding {@code bytes}, written once per kind and value bits. */
    private String scalar(String kind, long bits, int type, ByteBuffer bytes) {
        return sharedConstants.computeIfAbsent(kind + ":" + bits, k -> {
            String name = uniqueName("const_" + kind + "_" + names.size());
            constants.addInitializer(TensorProto.newBuilder().setName(name).setDataType(type)
                    .setRawData(ByteString.copyFrom(bytes.array())));
            return name;
        });
    }

    /** An ONNX tensor holding {@code value}'s elements (FLOAT32 as floats, INT32 as its raw int bits). */
    static TensorProto tensor(String name, Tensor value) {
        int n = value.size();
        ByteBuffer bytes = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
        float[] data = value.data();
        int off = value.offset();
        boolean ints = value.dtype() == DType.INT32;
        for (int i = 0; i < n; i++) {
            if (ints) {
                bytes.putInt(Float.floatToRawIntBits(data[off + i]));
            } else {
                bytes.putFloat(data[off + i]);
            }
        }
        TensorProto.Builder t = TensorProto.newBuilder().setName(name)
                .setDataType(ints ? TensorProto.DataType.INT32_VALUE : TensorProto.DataType.FLOAT_VALUE)
                .setRawData(ByteString.copyFrom(bytes.array()));
        for (int d : value.shape().dims()) {
            t.addDims(d);
        }
        return t.build();
    }

    private static List<Long> boxed(long[] dims) {
        List<Long> out = new ArrayList<>(dims.length);
        for (long d : dims) {
            out.add(d);
        }
        return out;
    }

    // ---- attributes ----

    static AttributeProto attr(String name, long value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(value)
                .build();
    }

    static AttributeProto attr(String name, float value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOAT).setF(value)
                .build();
    }

    static AttributeProto attr(String name, String value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.STRING)
                .setS(ByteString.copyFromUtf8(value)).build();
    }

    static AttributeProto attr(String name, GraphProto value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.GRAPH).setG(value)
                .build();
    }

    static AttributeProto ints(String name, long... values) {
        AttributeProto.Builder a = AttributeProto.newBuilder().setName(name)
                .setType(AttributeProto.AttributeType.INTS);
        for (long v : values) {
            a.addInts(v);
        }
        return a.build();
    }

    static AttributeProto ints(String name, int... values) {
        long[] longs = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            longs[i] = values[i];
        }
        return ints(name, longs);
    }
}
