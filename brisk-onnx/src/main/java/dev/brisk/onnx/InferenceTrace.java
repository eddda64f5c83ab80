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
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * A model's inference graph (what {@code predict} runs: {@code CallContext.training} false), traced twice, for batch
 * sizes {@value #BATCH_A} and {@value #BATCH_B}. Brisk's graphs have concrete shapes; the exported model takes any
 * batch size, so every dimension, reshape target and constant that differs between the two traces is the batch size
 * (times a factor), and is written as ONNX's dynamic {@code batch} dimension. The two traces must otherwise be the
 * same graph, node for node.
 */
final class InferenceTrace {
    static final int BATCH_A = 2;
    static final int BATCH_B = 3;

    private final Model model;
    private final List<Node> nodesA;
    private final List<Node> nodesB;
    private final List<Node> inputs;
    private final List<Node> outputs;
    private final boolean[] live;

    private InferenceTrace(Model model, List<Node> nodesA, List<Node> nodesB, List<Node> inputs, List<Node> outputs) {
        this.model = model;
        this.nodesA = nodesA;
        this.nodesB = nodesB;
        this.inputs = inputs;
        this.outputs = outputs;
        this.live = liveNodes(nodesA.size(), outputs);
    }

    /**
     * Traces {@code model}'s inference graph at the two batch sizes and checks that they agree.
     *
     * @param model a built model
     * @return the trace
     * @throws OnnxExportException when the model is not built or its graph depends on the batch size in another way
     */
    static InferenceTrace of(Model model) {
        if (model.inputs() == null || model.inputs().isEmpty()) {
            throw new OnnxExportException("model '" + model.name() + "' is not built: give it an input layer"
                    + " (Layers.input(..)) or build it (Sequential.build) before exporting it");
        }
        for (SymbolicTensor t : model.inputs()) {
            if (t.shape().isOpen()) {
                // The export names the batch axis alone as dynamic; an open sequence length would need its own.
                throw new OnnxExportException("model '" + model.name() + "': input '" + t.layer().name()
                        + "' has an open axis " + dev.brisk.nn.Layer.withBatch(t.shape()) + "; the ONNX export"
                        + " takes fixed sizes but for the batch axis: build the model for one length to export it");
            }
        }
        Graph a = Graph.symbolic(model.kernels());
        Graph b = Graph.symbolic(model.kernels());
        List<Node> inputsA = inputs(model, a, BATCH_A);
        List<Node> inputsB = inputs(model, b, BATCH_B);
        List<Node> outA = model.forward(a, inputsA, new CallContext(false, a.input("seed", Shape.scalar())));
        List<Node> outB = model.forward(b, inputsB, new CallContext(false, b.input("seed", Shape.scalar())));
        InferenceTrace trace = new InferenceTrace(model, a.nodes(), b.nodes(), inputsA, outA);
        trace.checkTwins(outB);
        return trace;
    }

    private static List<Node> inputs(Model model, Graph g, int batch) {
        List<Node> in = new ArrayList<>();
        for (SymbolicTensor t : model.inputs()) {
            InputLayer layer = (InputLayer) t.layer();
            in.add(g.input(layer.name(), t.shape().prepend(batch), layer.dtype()));
        }
        return in;
    }

    private void checkTwins(List<Node> outB) {
        if (nodesA.size() != nodesB.size()) {
            throw new OnnxExportException("model '" + model.name() + "': its inference graph has " + nodesA.size()
                    + " ops at batch size " + BATCH_A + " but " + nodesB.size() + " at " + BATCH_B
                    + "; a graph whose ops depend on the batch size cannot be exported");
        }
        for (int i = 0; i < nodesA.size(); i++) {
            Node x = nodesA.get(i);
            Node y = nodesB.get(i);
            boolean sameInputs = x.inputs().size() == y.inputs().size();
            for (int j = 0; sameInputs && j < x.inputs().size(); j++) {
                sameInputs = x.input(j).id() == y.input(j).id();
            }
            if (x.op() != y.op() || !sameInputs) {
                throw new OnnxExportException(describe(x) + ": the inference graph differs between batch sizes "
                        + BATCH_A + " and " + BATCH_B + " at this op, so it cannot be exported with a dynamic batch");
            }
            boolean shapeAttrs = x.op() == OpType.RESHAPE || x.op() == OpType.BROADCAST_TO
                    || x.op() == OpType.CONV2D_GRAD_INPUT && batchOnly(x.attrs(ConvGradAttrs.class),
                    y.attrs(ConvGradAttrs.class));
            if (!shapeAttrs && x.op() != OpType.CONSTANT && !Attributes.same(x.attrs(), y.attrs())) {
                throw new OnnxExportException(describe(x) + ": op " + x.op() + " has attributes that depend on the"
                        + " batch size (" + Attributes.describe(x.attrs()) + " at " + BATCH_A + ", "
                        + Attributes.describe(y.attrs()) + " at " + BATCH_B + "), which ONNX cannot take");
            }
        }
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i).id() != outB.get(i).id()) {
                throw new OnnxExportException("model '" + model.name() + "': output " + i
                        + " comes from different ops at batch sizes " + BATCH_A + " and " + BATCH_B);
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
        return nodesA;
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
     * The same node in the second trace.
     *
     * @param n a node of the first trace
     * @return its twin
     */
    Node twin(Node n) {
        return nodesB.get(n.id());
    }

    /**
     * Each dimension of {@code dimsA} (from the first trace) as a factor of the batch size, or 0 where it is the same
     * in both traces: {@code dimsA[i] = factor * BATCH_A} and {@code dimsB[i] = factor * BATCH_B}.
     *
     * @param n the node, for errors
     * @param dimsA the dims at the first batch size
     * @param dimsB the same dims at the second
     * @return the batch factor of each dim, 0 for a fixed dim
     * @throws OnnxExportException when a dim differs but not in proportion to the batch size
     */
    int[] batchFactors(Node n, int[] dimsA, int[] dimsB) {
        if (dimsA.length != dimsB.length) {
            throw new OnnxExportException(describe(n) + ": op " + n.op() + " has rank " + dimsA.length + " at batch"
                    + " size " + BATCH_A + " but " + dimsB.length + " at " + BATCH_B);
        }
        int[] factors = new int[dimsA.length];
        for (int i = 0; i < dimsA.length; i++) {
            if (dimsA[i] != dimsB[i]) {
                int factor = dimsA[i] / BATCH_A;
                if (dimsA[i] % BATCH_A != 0 || dimsB[i] != factor * BATCH_B) {
                    throw new OnnxExportException(describe(n) + ": op " + n.op() + " has dims "
                            + Arrays.toString(dimsA) + " at batch size " + BATCH_A + " and " + Arrays.toString(dimsB)
                            + " at " + BATCH_B + ", not a multiple of the batch size");
                }
                factors[i] = factor;
            }
        }
        return factors;
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
