package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.onnx.proto.AttributeProto;
import dev.brisk.onnx.proto.TypeProto;
import dev.brisk.onnx.proto.ValueInfoProto;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.RecurrentCell;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * SimpleRNN, LSTM and GRU (one RECURRENT_SEQUENCE node each): without a mask as ONNX's RNN, LSTM and GRU operators;
 * with a mask as a Scan whose body is one step of the cell, since ONNX's operators know only a length per sequence
 * (padding at the end), while a Keras mask may leave out any steps (padding at the start, Keras'
 * {@code pad_sequences} default, among them). Both run for however many steps the input has, so an open sequence
 * length exports as it is.
 *
 * <p>Weights for the operators: Keras' kernel {@code [inputs, gates * units]} and recurrent kernel
 * {@code [units, gates * units]} become ONNX's {@code W [1, gates * units, inputs]} and {@code R [1, gates * units,
 * units]} (transposed), with the gates reordered where the orders differ: Keras' LSTM is {@code i, f, c, o}, ONNX's
 * {@code i, o, f, c}; GRU is {@code z, r, h} in both, and Keras' {@code reset_after=True} is ONNX's
 * {@code linear_before_reset=1}. Keras' one LSTM or SimpleRNN bias is ONNX's input bias, with a zero recurrent bias;
 * GRU's {@code [2, 3 units]} bias is ONNX's input and recurrent bias as they are. Activations are the operators'
 * defaults, which are Keras' (sigmoid gates, tanh candidate and output).
 *
 * <p>Layout: the operators take {@code [steps, batch, inputs]} (ONNX Runtime does not take {@code layout=1}), so the
 * input is transposed before and the sequence output after. {@code goBackwards} reverses the input steps (and the
 * mask) first and runs forward, which gives Keras' output, in processing order; ONNX's "reverse" direction would
 * return the steps in input order instead. An initial state {@code [batch, states * units]} is split into {@code h}
 * (and LSTM's {@code c}); with {@code returnState} the output is Brisk's row of the output followed by the final
 * states. {@code outputInTimeOrder} (Bidirectional's backward layer) reverses a backward sequence output back into the
 * input's time order.
 *
 * <p>With a mask, as Brisk's kernel and Keras compute it: a masked step keeps the state; a step's output is its
 * state once some step up to it was real, zeros before (and zeros at every masked step with
 * {@code zeroOutputForMask}); the last output is zeros for a row without a real step.
 */
final class RecurrentTranslation {
    /** For each ONNX LSTM gate (i, o, f, c), the index of the same gate in Keras' order (i, f, c, o). */
    private static final int[] LSTM_GATES = {0, 3, 1, 2};
    /** ONNX's data type number for bool ({@code TensorProto.BOOL}). */
    private static final long BOOL = 9;

    private final NodeTranslator t;
    private final OnnxGraph g;
    private final Node n;
    private final RecurrentAttrs a;
    private final String b;
    private final int units;
    private final int gates;

    private RecurrentTranslation(NodeTranslator t, Node n) {
        this.t = t;
        this.g = t.graph();
        this.n = n;
        this.a = n.attrs(RecurrentAttrs.class);
        this.b = t.base(n);
        this.units = a.units();
        this.gates = a.cell().gates();
    }

    static String translate(NodeTranslator t, Node n, String layer) {
        RecurrentAttrs a = n.attrs(RecurrentAttrs.class);
        RecurrentCell cell = a.cell();
        if (cell != RecurrentCell.SIMPLE && cell != RecurrentCell.LSTM && cell != RecurrentCell.GRU) {
            throw new OnnxExportException(layer + ": op RECURRENT_SEQUENCE has cell=" + cell
                    + ", which the ONNX exporter does not translate");
        }
        int expected = 4 + (a.masked() ? 1 : 0) + (a.initialState() ? 1 : 0);
        if (n.inputs().size() != expected) {
            throw new OnnxExportException(layer + ": op RECURRENT_SEQUENCE reads " + n.inputs().size()
                    + " inputs, the exporter knows " + expected + " for masked=" + a.masked() + ", initialState="
                    + a.initialState());
        }
        for (int i = 1; i <= 3; i++) {
            if (n.input(i).op() != OpType.VARIABLE) {
                throw new OnnxExportException(layer + ": input " + i + " of RECURRENT_SEQUENCE is computed ("
                        + n.input(i).op() + "), not a weight; the exporter converts the layer's own weights only");
            }
        }
        return new RecurrentTranslation(t, n).translate();
    }

    private String translate() {
        String x = t.in(n, 0);
        String mask = a.masked() ? t.in(n, a.maskInput()) : null;
        if (a.goBackwards()) {
            x = reversedSteps(x, "reversed");
            mask = mask == null ? null : reversedSteps(mask, "mask_reversed");
        }
        String h0 = null;
        String c0 = null;
        if (a.initialState()) {
            String init = t.in(n, a.initialStateInput());
            h0 = g.node("Slice", b + "/h0", List.of(init, g.int64s(0), g.int64s(units), g.int64s(1)));
            if (a.cell() == RecurrentCell.LSTM) {
                c0 = g.node("Slice", b + "/c0", List.of(init, g.int64s(units), g.int64s(2L * units), g.int64s(1)));
            }
        }
        // out: the sequence [batch, steps, units] or the last output [batch, units]; then the final states.
        List<String> result = new ArrayList<>(mask == null ? operator(x, h0, c0) : scanned(x, mask, h0, c0));
        if (a.goBackwards() && a.returnSequences() && a.outputInTimeOrder()) {
            // Bidirectional's backward layer: the sequence flipped back into the input's time order.
            result.set(0, reversedSteps(result.get(0), "time_order"));
        }
        if (!a.returnState()) {
            return result.get(0);
        }
        List<String> row = new ArrayList<>();
        row.add(a.returnSequences()
                ? g.node("Reshape", b + "/sequence_row", List.of(result.get(0), g.int64s(0, -1)))
                : result.get(0));
        row.addAll(result.subList(1, result.size()));
        return g.node("Concat", b, row, attr("axis", 1L));
    }

    /** The ONNX operator: the output, then the final h (and c). */
    private List<String> operator(String x, String h0, String c0) {
        RecurrentCell cell = a.cell();
        String op = switch (cell) {
            case SIMPLE -> "RNN";
            case LSTM -> "LSTM";
            default -> "GRU";
        };
        int inputs = n.input(1).shape().dim(0);
        int[] order = cell == RecurrentCell.LSTM ? LSTM_GATES : identity(gates);
        String w = g.floatInitializer(b + "/W", transposedGates(weight(1), inputs, order), 1, (long) gates * units,
                inputs);
        String r = g.floatInitializer(b + "/R", transposedGates(weight(2), units, order), 1, (long) gates * units,
                units);
        float[] biases = new float[2 * gates * units];
        float[] keras = weight(3).toArray();
        if (cell == RecurrentCell.GRU) {
            System.arraycopy(keras, 0, biases, 0, 2 * gates * units);
        } else {
            for (int gate = 0; gate < gates; gate++) {
                System.arraycopy(keras, order[gate] * units, biases, gate * units, units);
            }
        }
        String bias = g.floatInitializer(b + "/B", biases, 1, 2L * gates * units);
        List<String> in = new ArrayList<>(List.of(
                g.node("Transpose", b + "/steps_first", List.of(x), ints("perm", 1, 0, 2)), w, r, bias));
        if (h0 != null) {
            in.add(""); // sequence_lens
            in.add(g.node("Unsqueeze", b + "/initial_h", List.of(h0, g.int64s(0))));
            if (c0 != null) {
                in.add(g.node("Unsqueeze", b + "/initial_c", List.of(c0, g.int64s(0))));
            }
        }
        String name = b + "/" + op.toLowerCase(Locale.ROOT);
        List<String> outs = cell == RecurrentCell.GRU
                ? g.nodeWithOutputs(op, name, in, 2, attr("hidden_size", (long) units),
                        attr("linear_before_reset", 1L))
                : g.nodeWithOutputs(op, name, in, cell == RecurrentCell.LSTM ? 3 : 2,
                        attr("hidden_size", (long) units));
        String finalH = g.node("Squeeze", b + "/final_h", List.of(outs.get(1), g.int64s(0)));
        List<String> result = new ArrayList<>();
        if (a.returnSequences()) {
            // Y is [steps, directions = 1, batch, units].
            String seq = g.node("Squeeze", b + "/sequence", List.of(outs.get(0), g.int64s(1)));
            result.add(g.node("Transpose", b + "/output", List.of(seq), ints("perm", 1, 0, 2)));
        } else {
            result.add(finalH);
        }
        result.add(finalH);
        if (cell == RecurrentCell.LSTM) {
            result.add(g.node("Squeeze", b + "/final_c", List.of(outs.get(2), g.int64s(0))));
        }
        return result;
    }

    /**
     * The recurrence as a Scan over the steps, for a mask: the body is one step of the cell on the state
     * {@code h} (and LSTM's {@code c}) and whether a real step has been seen yet, given the step's {@code x W + b} and
     * whether it is real; Scan runs it for however many steps the input has. Returns the output, then the final h
     * (and c).
     */
    private List<String> scanned(String x, String mask, String h0, String c0) {
        RecurrentCell cell = a.cell();
        boolean lstm = cell == RecurrentCell.LSTM;
        boolean gru = cell == RecurrentCell.GRU;
        String kernel = t.value(n.input(1));
        String recurrent = t.value(n.input(2));
        String biasValue = t.value(n.input(3));
        String inputBias = gru ? g.node("Gather", b + "/input_bias", List.of(biasValue, g.int32Scalar(0)),
                attr("axis", 0L)) : biasValue;
        String recurrentBias = gru ? g.node("Gather", b + "/recurrent_bias", List.of(biasValue, g.int32Scalar(1)),
                attr("axis", 0L)) : null;
        // x W + b for every step at once: [batch, steps, gates * units].
        String xw = g.node("Add", b + "/xw", List.of(g.node("MatMul", b + "/x_kernel", List.of(x, kernel)),
                inputBias));
        String real = g.node("Cast", b + "/real", List.of(mask), attr("to", BOOL)); // nonzero is a real step
        SymbolicDim batch = new SymbolicDim(InferenceTrace.BATCH_A, 1, 1);
        String zeros = g.node("Expand", b + "/zeros", List.of(g.floatScalar(0f), t.shapes().shape(
                new SymbolicDim[] {batch, new SymbolicDim(units, units, 0)}, t.trace().describe(n))));
        String noneSeen = g.node("Cast", b + "/none_seen", List.of(g.node("Expand", b + "/zero_column", List.of(
                g.floatScalar(0f), t.shapes().shape(new SymbolicDim[] {batch, new SymbolicDim(1, 1, 0)},
                t.trace().describe(n))))), attr("to", BOOL));

        OnnxGraph body = new OnnxGraph(g);
        String p = b + "/step";
        String h = body.uniqueName(p + "/h_prev");
        String c = lstm ? body.uniqueName(p + "/c_prev") : null;
        String seenBefore = body.uniqueName(p + "/seen_prev");
        String xs = body.uniqueName(p + "/xw");
        String realIn = body.uniqueName(p + "/real_in");
        String realNow = body.node("Unsqueeze", p + "/real", List.of(realIn, g.int64s(1)));
        String seen = body.node("Or", p + "/seen", List.of(seenBefore, realNow));
        long[] split = new long[gates];
        Arrays.fill(split, units);
        String hu = body.node("MatMul", p + "/h_recurrent", List.of(h, recurrent));
        String newH;
        String newC = null;
        if (gru) {
            hu = body.node("Add", p + "/h_recurrent_bias", List.of(hu, recurrentBias));
            List<String> xg = body.nodeWithOutputs("Split", p + "/x_gates", List.of(xs, g.int64s(split)), 3,
                    attr("axis", 1L));
            List<String> hg = body.nodeWithOutputs("Split", p + "/h_gates", List.of(hu, g.int64s(split)), 3,
                    attr("axis", 1L));
            String z = body.node("Sigmoid", p + "/z", List.of(body.node("Add", p + "/z_in", List.of(xg.get(0),
                    hg.get(0)))));
            String r = body.node("Sigmoid", p + "/r", List.of(body.node("Add", p + "/r_in", List.of(xg.get(1),
                    hg.get(1)))));
            String candidate = body.node("Tanh", p + "/candidate", List.of(body.node("Add", p + "/candidate_in",
                    List.of(xg.get(2), body.node("Mul", p + "/reset", List.of(r, hg.get(2)))))));
            // h = z h + (1 - z) candidate
            newH = body.node("Add", p + "/h_new", List.of(body.node("Mul", p + "/keep", List.of(z, h)),
                    body.node("Mul", p + "/take", List.of(body.node("Sub", p + "/one_minus_z",
                            List.of(g.floatScalar(1f), z)), candidate))));
        } else if (lstm) {
            String zsum = body.node("Add", p + "/gates_in", List.of(xs, hu));
            List<String> gs = body.nodeWithOutputs("Split", p + "/gates", List.of(zsum, g.int64s(split)), 4,
                    attr("axis", 1L));
            String i = body.node("Sigmoid", p + "/i", List.of(gs.get(0)));
            String f = body.node("Sigmoid", p + "/f", List.of(gs.get(1)));
            String candidate = body.node("Tanh", p + "/candidate", List.of(gs.get(2)));
            String o = body.node("Sigmoid", p + "/o", List.of(gs.get(3)));
            newC = body.node("Add", p + "/c_new", List.of(body.node("Mul", p + "/forget", List.of(f, c)),
                    body.node("Mul", p + "/input", List.of(i, candidate))));
            newH = body.node("Mul", p + "/h_new", List.of(o, body.node("Tanh", p + "/c_tanh", List.of(newC))));
        } else {
            newH = body.node("Tanh", p + "/h_new", List.of(body.node("Add", p + "/h_in", List.of(xs, hu))));
        }
        // A masked step keeps the state.
        List<String> bodyOut = new ArrayList<>();
        bodyOut.add(body.node("Where", p + "/h", List.of(realNow, newH, h)));
        if (lstm) {
            bodyOut.add(body.node("Where", p + "/c", List.of(realNow, newC, c)));
        }
        bodyOut.add(body.node("Identity", p + "/seen_out", List.of(seen)));
        if (a.returnSequences()) {
            String shown = a.zeroOutputForMask() ? realNow : seen;
            bodyOut.add(body.node("Where", p + "/shown", List.of(shown, bodyOut.get(0), zeros)));
        }
        List<String> bodyIn = new ArrayList<>(List.of(h));
        if (lstm) {
            bodyIn.add(c);
        }
        bodyIn.addAll(List.of(seenBefore, xs, realIn));
        for (String in : bodyIn) {
            boolean bool = in.equals(seenBefore) || in.equals(realIn);
            body.proto().addInput(valueType(in, bool ? BOOL : NodeTranslator.FLOAT));
        }
        String seenOut = bodyOut.get(lstm ? 2 : 1);
        for (String out : bodyOut) {
            body.proto().addOutput(valueType(out, out.equals(seenOut) ? BOOL : NodeTranslator.FLOAT));
        }
        body.proto().setName(b + "/step_body");

        List<String> scanIn = new ArrayList<>();
        scanIn.add(h0 != null ? h0 : zeros);
        if (lstm) {
            scanIn.add(c0 != null ? c0 : zeros);
        }
        scanIn.addAll(List.of(noneSeen, xw, real));
        int states = lstm ? 3 : 2;
        List<AttributeProto> scanAttrs = new ArrayList<>(List.of(attr("body", body.proto().build()),
                attr("num_scan_inputs", 2L), ints("scan_input_axes", 1, 1)));
        if (a.returnSequences()) {
            scanAttrs.add(ints("scan_output_axes", 1));
        }
        List<String> outs = g.nodeWithOutputs("Scan", b + "/scan", scanIn, states + (a.returnSequences() ? 1 : 0),
                scanAttrs.toArray(new AttributeProto[0]));
        String finalH = outs.get(0);
        String finalSeen = outs.get(states - 1);
        List<String> result = new ArrayList<>();
        result.add(a.returnSequences() ? outs.get(states)
                : g.node("Where", b + "/output", List.of(finalSeen, finalH, zeros)));
        result.add(finalH);
        if (lstm) {
            result.add(outs.get(1));
        }
        return result;
    }

    /** A subgraph input or output: its name and element type, shape left to the runtime. */
    private static ValueInfoProto valueType(String name, long type) {
        return ValueInfoProto.newBuilder().setName(name)
                .setType(TypeProto.newBuilder().setTensorType(
                        TypeProto.Tensor.newBuilder().setElemType((int) type)))
                .build();
    }

    private String reversedSteps(String value, String name) {
        return g.node("Slice", b + "/" + name, List.of(value, g.int64s(-1), g.int64s(Long.MIN_VALUE), g.int64s(1),
                g.int64s(-1)));
    }

    private Tensor weight(int i) {
        return n.input(i).variable().value();
    }

    /** Keras' {@code [rows, gates * units]} as ONNX's {@code [gates * units, rows]}, gates in ONNX's order. */
    private static float[] transposedGates(Tensor keras, int rows, int[] order) {
        int gates = order.length;
        int units = keras.shape().dim(1) / gates;
        int cols = gates * units;
        float[] out = new float[cols * rows];
        for (int gate = 0; gate < gates; gate++) {
            for (int u = 0; u < units; u++) {
                int from = order[gate] * units + u;
                int to = gate * units + u;
                for (int k = 0; k < rows; k++) {
                    out[to * rows + k] = keras.get(k * cols + from);
                }
            }
        }
        return out;
    }

    private static int[] identity(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }
}
