package dev.brisk.onnx;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.tensor.Shape;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * A model's inference graph (what {@code predict} runs: {@code CallContext.training} false), traced once per dynamic
 * size and once more. Brisk's graphs have concrete shapes; the exported model takes any batch size and, for each axis
 * the model leaves open ({@code Shape.OPEN}, Keras' {@code None}), any length. The first trace has batch size
 * {@value #BATCH_A} and every open axis {@value #LENGTH_A} long; each further trace changes one dynamic size (the batch
 * to {@value #BATCH_B}, or one open axis to {@value #LENGTH_B}), so every dimension, reshape target and constant that
 * differs between the first trace and another depends on that size, and is written as ONNX's dynamic dimension
 * ({@code batch}, {@code length}) or computed from the inputs' shapes at run time ({@link SymbolicDim}). The traces
 * must otherwise be the same graph, node for node.
 */
final class InferenceTrace {
    static final int BATCH_A = 2;
    static final int BATCH_B = 3;
    /** The open axes' length in the first trace: co-prime with the batch sizes, so no product of them is confused. */
    static final int LENGTH_A = 7;
    /** An open axis's length in its own trace. */
    static final int LENGTH_B = 9;

    private final Model model;
    private final List<List<Node>> traces;
    private final List<Node> inputs;
    private final List<Node> outputs;
    private final List<OpenAxis> symbols;
    private final boolean[] live;

    /**
     * A dynamic size of the exported model: the batch (input -1) or an open axis of a model input.
     *
     * @param name the ONNX dimension name ({@code batch}, {@code length})
     * @param input the model input it belongs to, -1 for the batch (every input's first axis)
     * @param axis its axis in that input, batch axis included
     * @param base its size in the first trace
     * @param varied its size in its own trace
     */
    record OpenAxis(String name, int input, int axis, int base, int varied) {
    }

    private InferenceTrace(Model model, List<List<Node>> traces, List<Node> inputs, List<Node> outputs,
                           List<OpenAxis> symbols) {
        this.model = model;
        this.traces = traces;
        this.inputs = inputs;
        this.outputs = outputs;
        this.symbols = symbols;
        this.live = liveNodes(traces.get(0).size(), outputs);
    }

    /**
     * Traces {@code model}'s inference graph at the dynamic sizes and checks that the traces agree.
     *
     * @param model a built model
     * @return the trace
     * @throws OnnxExportException when the model is not built or its graph depends on a dynamic size in another way
     */
    static InferenceTrace of(Model model) {
        if (model.inputs() == null || model.inputs().isEmpty()) {
            throw new OnnxExportException("model '" + model.name() + "' is not built: give it an input layer"
                    + " (Layers.input(..)) or build it (Sequential.build) before exporting it");
        }
        List<OpenAxis> symbols = symbols(model);
        List<List<Node>> traces = new ArrayList<>();
        List<List<Node>> outs = new ArrayList<>();
        List<Node> firstInputs = null;
        for (int variant = 0; variant <= symbols.size(); variant++) {
            Graph g = Graph.symbolic(model.kernels());
            List<Node> in = inputs(model, g, symbols, variant);
            try {
                outs.add(model.forward(g, in, new CallContext(false, g.input("seed", Shape.scalar()))));
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new OnnxExportException("model '" + model.name() + "': tracing its inference graph at "
                        + describeSizes(symbols, variant) + " failed (" + e.getMessage() + "); the export traces an"
                        + " open axis at lengths " + LENGTH_A + " and " + LENGTH_B, e);
            }
            traces.add(g.nodes());
            firstInputs = firstInputs == null ? in : firstInputs;
        }
        InferenceTrace trace = new InferenceTrace(model, traces, firstInputs, outs.get(0), symbols);
        for (int variant = 1; variant <= symbols.size(); variant++) {
            trace.checkVariant(variant, outs.get(variant));
        }
        return trace;
    }

    /** The batch, then each open axis of each input, in input order. */
    private static List<OpenAxis> symbols(Model model) {
        List<OpenAxis> symbols = new ArrayList<>();
        symbols.add(new OpenAxis(OnnxExport.BATCH, -1, 0, BATCH_A, BATCH_B));
        int open = 0;
        for (SymbolicTensor t : model.inputs()) {
            for (int d : t.shape().dims()) {
                open += d == Shape.OPEN ? 1 : 0;
            }
        }
        List<SymbolicTensor> in = model.inputs();
        for (int i = 0; i < in.size(); i++) {
            int[] dims = in.get(i).shape().dims();
            for (int a = 0; a < dims.length; a++) {
                if (dims[a] == Shape.OPEN) {
                    String name = open == 1 ? OnnxExport.LENGTH : in.get(i).layer().name() + "_axis" + (a + 1);
                    symbols.add(new OpenAxis(name, i, a + 1, LENGTH_A, LENGTH_B));
                }
            }
        }
        return symbols;
    }

    private static List<Node> inputs(Model model, Graph g, List<OpenAxis> symbols, int variant) {
        List<Node> in = new ArrayList<>();
        List<SymbolicTensor> modelInputs = model.inputs();
        for (int i = 0; i < modelInputs.size(); i++) {
            SymbolicTensor t = modelInputs.get(i);
            InputLayer layer = (InputLayer) t.layer();
            int[] sample = t.shape().dims();
            int[] dims = new int[sample.length + 1];
            System.arraycopy(sample, 0, dims, 1, sample.length);
            for (int j = 0; j < symbols.size(); j++) {
                OpenAxis s = symbols.get(j);
                if (s.input() < 0 || s.input() == i) {
                    dims[s.axis()] = j + 1 == variant ? s.varied() : s.base();
                }
            }
            in.add(g.input(layer.name(), Shape.of(dims), layer.dtype()));
        }
        return in;
    }

    private static String describeSizes(List<OpenAxis> symbols, int variant) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < symbols.size(); j++) {
            OpenAxis s = symbols.get(j);
            sb.append(j == 0 ? "" : ", ").append(s.name()).append(' ').append(j + 1 == variant ? s.varied() : s.base());
        }
        return sb.toString();
    }

    /**
     * What trace {@code variant} (1 or more) changes, for errors: "batch sizes 2 and 3", "lengths 7 and 9 of input
     * 'ids'".
     */
    private String describeVariant(int variant) {
        OpenAxis s = symbols.get(Math.max(variant, 1) - 1);
        if (s.input() < 0) {
            return "batch sizes " + BATCH_A + " and " + BATCH_B;
        }
        return "lengths " + LENGTH_A + " and " + LENGTH_B + " of input '" + model.inputs().get(s.input()).layer().name()
                + "' (axis " + s.axis() + ", open)";
    }

    private void checkVariant(int variant, List<Node> outB) {
        List<Node> nodesA = traces.get(0);
        List<Node> nodesB = traces.get(variant);
        boolean length = symbols.get(variant - 1).input() >= 0;
        String sizes = describeVariant(variant);
        if (nodesA.size() != nodesB.size()) {
            throw new OnnxExportException("model '" + model.name() + "': its inference graph has " + nodesA.size()
                    + " ops at the first and " + nodesB.size() + " at the second of " + sizes
                    + "; a graph whose ops depend on a dynamic size cannot be exported");
        }
        for (int i = 0; i < nodesA.size(); i++) {
            Node x = nodesA.get(i);
            Node y = nodesB.get(i);
            boolean sameInputs = x.inputs().size() == y.inputs().size();
            for (int j = 0; sameInputs && j < x.inputs().size(); j++) {
                sameInputs = x.input(j).id() == y.input(j).id();
            }
            if (x.op() != y.op() || !sameInputs) {
                throw new OnnxExportException(describe(x) + ": the inference graph differs between " + sizes
                        + " at this op, so it cannot be exported with that size dynamic");
            }
            boolean shapeAttrs = x.op() == OpType.RESHAPE || x.op() == OpType.BROADCAST_TO
                    || x.op() == OpType.CONV2D_GRAD_INPUT && !length && batchOnly(x.attrs(ConvGradAttrs.class),
                    y.attrs(ConvGradAttrs.class))
                    // A mean's 1 / count over an open axis; the translation computes the count at run time.
                    || length && MeanScale.isScale(x);
            if (!shapeAttrs && x.op() != OpType.CONSTANT && !Attributes.same(x.attrs(), y.attrs())) {
                throw new OnnxExportException(describe(x) + ": op " + x.op() + " has attributes that depend on the "
                        + (length ? "sequence length" : "batch size") + " (" + Attributes.describe(x.attrs())
                        + " and " + Attributes.describe(y.attrs()) + " at " + sizes + "), which the ONNX export"
                        + " cannot write for any " + (length ? "length" : "batch size")
                        + (length ? "; build the model for one length to export it" : ""));
            }
        }
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i).id() != outB.get(i).id()) {
                throw new OnnxExportException("model '" + model.name() + "': output " + i
                        + " comes from different ops at " + sizes);
            }
        }
    }

    /**
     * Whether two traces of a Conv2DTranspose differ only in the batch size of its output shape (which its
     * translation does not read: ConvTranspose takes the batch from its input).
     */
    private static boolean batchOnly(ConvGradAttrs a, ConvGradAttrs b) {
        return a.conv().equals(b.conv()) && a.resultShape().dropFirst().equals(b.resultShape().dropFirst());
    }

    private static boolean[] liveNodes(int n, List<Node> outputs) {
        boolean[] live = new boolean[n];
        Deque<Node> work = new ArrayDeque<>(outputs);
        while (!work.isEmpty()) {
            Node x = work.pop();
            if (!live[x.id()]) {
                live[x.id()] = true;
                work.addAll(x.inputs());
            }
        }
        return live;
    }

    /**
     * The model traced.
     *
     * @return the model
     */
    Model model() {
        return model;
    }

    /**
     * The nodes of the first trace, in execution order.
     *
     * @return the nodes
     */
    List<Node> nodes() {
        return traces.get(0);
    }

    /**
     * Whether an output depends on {@code n} (only those nodes are exported).
     *
     * @param n a node of the first trace
     * @return true when live
     */
    boolean isLive(Node n) {
        return live[n.id()];
    }

    /**
     * The model's input nodes in the first trace.
     *
     * @return one node per model input
     */
    List<Node> inputs() {
        return inputs;
    }

    /**
     * The model's output nodes in the first trace.
     *
     * @return one node per model output
     */
    List<Node> outputs() {
        return outputs;
    }

    /**
     * The dynamic sizes: the batch first, then each open axis.
     *
     * @return the sizes
     */
    List<OpenAxis> symbols() {
        return symbols;
    }

    /**
     * Whether the model leaves an axis open (the export then has a dynamic length besides the batch).
     *
     * @return true with an open axis
     */
    boolean hasOpenAxes() {
        return symbols.size() > 1;
    }

    /**
     * The same node in every trace: the first trace's node, then its twin in each trace that changes one dynamic
     * size (the batch, then each open axis).
     *
     * @param n a node of the first trace
     * @return one node per trace
     */
    List<Node> variants(Node n) {
        List<Node> out = new ArrayList<>(traces.size());
        for (List<Node> t : traces) {
            out.add(t.get(n.id()));
        }
        return out;
    }

    /**
     * Each dimension of a node's output shape as the exported model sees it.
     *
     * @param n a node of the first trace
     * @return one dimension per axis
     */
    SymbolicDim[] dims(Node n) {
        List<int[]> shapes = new ArrayList<>();
        for (Node v : variants(n)) {
            shapes.add(v.shape().dims());
        }
        return dims(n, shapes);
    }

    /**
     * Each dimension of a shape that the traces give for the same node (an output shape, a reshape's target).
     *
     * @param n the node, for errors
     * @param shapes the shape in each trace, in trace order
     * @return one dimension per axis
     * @throws OnnxExportException when the rank differs between traces
     */
    SymbolicDim[] dims(Node n, List<int[]> shapes) {
        int rank = shapes.get(0).length;
        int[] base = new int[symbols.size()];
        int[] varied = new int[symbols.size()];
        for (int j = 0; j < base.length; j++) {
            base[j] = symbols.get(j).base();
            varied[j] = symbols.get(j).varied();
        }
        SymbolicDim[] out = new SymbolicDim[rank];
        for (int i = 0; i < rank; i++) {
            int[] sizes = new int[shapes.size()];
            for (int t = 0; t < sizes.length; t++) {
                if (shapes.get(t).length != rank) {
                    throw new OnnxExportException(describe(n) + ": op " + n.op() + " has rank " + rank + " in one"
                            + " trace but " + shapes.get(t).length + " at " + describeVariant(t));
                }
                sizes[t] = shapes.get(t)[i];
            }
            out[i] = SymbolicDim.of(sizes, base, varied);
        }
        return out;
    }

    /**
     * The layer that made {@code n}, for errors: its name and class, as in {@code layer 'conv' (Conv2D)}.
     *
     * @param n a node
     * @return the description
     */
    String describe(Node n) {
        String scope = n.scope();
        if (scope == null || scope.isEmpty()) {
            return "model '" + model.name() + "', op %" + n.id();
        }
        for (Layer l : model.layers()) {
            if (Objects.equals(l.name(), scope)) {
                return "layer '" + scope + "' (" + l.typeName() + ")";
            }
        }
        return "'" + scope + "'";
    }
}
