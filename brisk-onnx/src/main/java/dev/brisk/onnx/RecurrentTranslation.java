package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.RecurrentCell;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * SimpleRNN, LSTM and GRU (one RECURRENT_SEQUENCE node each) as ONNX's RNN, LSTM and GRU operators.
 *
 * <p>Weights: Keras' kernel {@code [inputs, gates * units]} and recurrent kernel {@code [units, gates * units]} become
 * ONNX's {@code W [1, gates * units, inputs]} and {@code R [1, gates * units, units]} (transposed), with the gates
 * reordered where the orders differ: Keras' LSTM is {@code i, f, c, o}, ONNX's {@code i, o, f, c}; GRU is
 * {@code z, r, h} in both, and Keras' {@code reset_after=True} is ONNX's {@code linear_before_reset=1}. Keras' one
 * LSTM or SimpleRNN bias is ONNX's input bias, with a zero recurrent bias; GRU's {@code [2, 3 units]} bias is ONNX's
 * input and recurrent bias as they are. Activations are the operators' defaults, which are Keras' (sigmoid gates,
 * tanh candidate and output).
 *
 * <p>Layout: ONNX's operators take {@code [steps, batch, inputs]} (ONNX Runtime does not take {@code layout=1}), so
 * the input is transposed before and the sequence output after. {@code goBackwards} reverses the input steps first and
 * runs forward, which gives Keras' output (in processing order, as Keras returns it); ONNX's "reverse" direction
 * would return the steps in input order instead.
 */
final class RecurrentTranslation {
    /** For each ONNX LSTM gate (i, o, f, c), the index of the same gate in Keras' order (i, f, c, o). */
    private static final int[] LSTM_GATES = {0, 3, 1, 2};

    private RecurrentTranslation() {
    }

    static String translate(NodeTranslator t, Node n, String layer) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        RecurrentAttrs a = n.attrs(RecurrentAttrs.class);
        RecurrentCell cell = a.cell();
        String operator = switch (cell) {
            case SIMPLE -> "RNN";
            case LSTM -> "LSTM";
            case GRU -> "GRU";
            default -> throw new OnnxExportException(layer + ": op RECURRENT_SEQUENCE has cell=" + cell
                    + ", which the ONNX exporter does not translate");
        };
        Tensor kernel = weight(n, 1, layer);
        Tensor recurrent = weight(n, 2, layer);
        Tensor bias = weight(n, 3, layer);
        int units = a.units();
        int gates = cell.gates();
        int inputs = kernel.shape().dim(0);
        int[] order = cell == RecurrentCell.LSTM ? LSTM_GATES : identity(gates);
        String w = g.floatInitializer(b + "/W", transposedGates(kernel, inputs, units, order), 1, gates * units, inputs);
        String r = g.floatInitializer(b + "/R", transposedGates(recurrent, units, units, order), 1, gates * units,
                units);
        float[] biases = new float[2 * gates * units];
        if (cell == RecurrentCell.GRU) {
            System.arraycopy(bias.toArray(), 0, biases, 0, 2 * gates * units);
        } else {
            float[] keras = bias.toArray();
            for (int gate = 0; gate < gates; gate++) {
                System.arraycopy(keras, order[gate] * units, biases, gate * units, units);
            }
        }
        String bName = g.floatInitializer(b + "/B", biases, 1, 2L * gates * units);

        String x = t.in(n, 0);
        if (a.goBackwards()) {
            x = g.node("Slice", b + "/reversed", List.of(x, g.int64s(-1), g.int64s(Long.MIN_VALUE), g.int64s(1),
                    g.int64s(-1)));
        }
        String stepMajor = g.node("Transpose", b + "/steps_first", List.of(x), ints("perm", 1, 0, 2));
        List<String> outs = cell == RecurrentCell.GRU
                ? g.nodeWithOutputs(operator, b + "/" + operator.toLowerCase(java.util.Locale.ROOT),
                        List.of(stepMajor, w, r, bName), 2, attr("hidden_size", (long) units),
                        attr("linear_before_reset", 1L))
                : g.nodeWithOutputs(operator, b + "/" + operator.toLowerCase(java.util.Locale.ROOT),
                        List.of(stepMajor, w, r, bName), 2, attr("hidden_size", (long) units));
        if (a.returnSequences()) {
            // Y is [steps, directions = 1, batch, units].
            String seq = g.node("Squeeze", b + "/sequence", List.of(outs.get(0), g.int64s(1)));
            return g.node("Transpose", b, List.of(seq), ints("perm", 1, 0, 2));
        }
        // Y_h is [directions = 1, batch, units].
        return g.node("Squeeze", b, List.of(outs.get(1), g.int64s(0)));
    }

    /** Keras' {@code [rows, gates * units]} as ONNX's {@code [gates * units, rows]}, gates in ONNX's order. */
    private static float[] transposedGates(Tensor keras, int rows, int units, int[] order) {
        int gates = order.length;
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

    private static Tensor weight(Node n, int i, String layer) {
        Node w = n.input(i);
        if (w.op() != OpType.VARIABLE) {
            throw new OnnxExportException(layer + ": input " + i + " of RECURRENT_SEQUENCE is computed (" + w.op()
                    + "), not a weight; the exporter converts the layer's own weights only");
        }
        return w.variable().value();
    }

    private static int[] identity(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }
}
