package dev.brisk.eager;

import dev.brisk.backend.EagerBuffers;
import dev.brisk.backend.KernelTimer;
import dev.brisk.backend.Kernels;
import dev.brisk.exec.FusedBinder;
import dev.brisk.exec.FusedChain;
import dev.brisk.exec.Fusion;
import dev.brisk.exec.Instruction;
import dev.brisk.exec.KernelBinder;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * Eager execution: computes a node the moment it is made, into a freshly allocated tensor (as op-by-op frameworks
 * do). Used for debugging ({@code runEagerly}) and as the reference the compiled plan is tested against.
 */
public final class EagerRunner {
    private static final KernelBinder.Buffers NODE_VALUES = new KernelBinder.Buffers() {
        @Override
        public Tensor valueOf(Node node) {
            Tensor v = node.value();
            if (v == null) {
                throw new IllegalStateException("eager input " + node + " has no value");
            }
            return v;
        }

        @Override
        public Tensor auxOf(Node node) {
            return node.aux();
        }
    };

    private EagerRunner() {
    }

    /** Computes {@code node} from its inputs' values and stores the result in it, in a new tensor. */
    public static void run(Node node, Kernels kernels) {
        compute(node, kernels, null);
    }

    /**
     * Computes {@code node} from its inputs' values and stores the result in it, in storage from {@code buffers}
     * (fresh zeroed tensors when null); a non-null {@code timer} is told how long a node that calls a kernel took
     * (the time includes taking its result's storage and binding the call, which eager execution pays on every
     * op).
     */
    public static void run(Node node, Kernels kernels, EagerBuffers buffers, KernelTimer timer) {
        if (timer == null) {
            compute(node, kernels, buffers);
            return;
        }
        long start = System.nanoTime();
        compute(node, kernels, buffers);
        if (KernelBinder.callsKernel(node.op())) {
            timer.record(node, start, System.nanoTime());
        }
    }

    /**
     * Computes a chain built inside {@code Graph.fusing} as the one fused kernel call a compiled plan
     * makes for it (see {@link Fusion}), storing the result in the chain's last node only: a product or convolution
     * {@code nodes.get(0)}, then optionally the add of {@code bias} and the unary {@code activation}, and for a
     * convolution optionally the max pooling of that (which keeps its cells), for a product optionally a binary op
     * {@code gate} of that and an operand of its shape; or max pooling's gradient, then the
     * activation gradient {@code gate} taking it as its upstream gradient.
     */
    public static void runChain(List<Node> nodes, Node bias, Node activation, Node gate, Kernels kernels,
                                EagerBuffers buffers, KernelTimer timer) {
        long start = timer == null ? 0 : System.nanoTime();
        FusedChain group = new FusedChain(List.copyOf(nodes), bias, activation, gate);
        Node last = group.last();
        Shape auxShape = ShapeInference.auxShape(last);
        if (auxShape != null) {
            last.setAux(take(buffers, auxShape));
        }
        Tensor out = take(buffers, last.shape());
        FusedBinder.bind(group, out, NODE_VALUES, kernels).run();
        last.setValue(out);
        if (timer != null) {
            timer.record(group.describe(), start, System.nanoTime());
        }
    }

    /**
     * Computes {@code reader}, a bias gradient or a filter gradient of the gradient that chain {@code nodes} (max
     * pooling's gradient, then relu's gradient {@code gate} decided by the pool's cells) makes, from the pool's cells
     * and the pooled gradient, without that gradient's value: the call a plan makes for a routed chain.
     */
    public static void runRouted(Node reader, List<Node> nodes, Node gate, Kernels kernels, EagerBuffers buffers,
                                 KernelTimer timer) {
        long start = timer == null ? 0 : System.nanoTime();
        FusedChain group = new FusedChain(List.copyOf(nodes), null, null, gate);
        Tensor out = take(buffers, reader.shape());
        FusedBinder.bindRoutedReader(reader, group, out, NODE_VALUES, kernels).run();
        reader.setValue(out);
        if (timer != null) {
            timer.record(group.describeReadBy(reader), start, System.nanoTime());
        }
    }

    private static Tensor take(EagerBuffers buffers, Shape shape) {
        return buffers == null ? Tensor.zeros(shape) : buffers.take(shape);
    }

    /** True unless fusion is turned off ({@code -Dbrisk.fusion=false}), for plans and eager chains alike. */
    public static boolean fuses() {
        return Fusion.enabledByDefault();
    }

    private static void compute(Node node, Kernels kernels, EagerBuffers buffers) {
        OpType op = node.op();
        if (op == OpType.VARIABLE) {
            node.setValue(node.variable().value());
            return;
        }
        if (op == OpType.RESHAPE) {
            node.setValue(node.input(0).value().reshape(node.shape()));
            return;
        }
        if (op == OpType.INPUT || op == OpType.CONSTANT) {
            if (node.value() == null) {
                throw new IllegalStateException("eager " + op + " node " + node + " was made without a value");
            }
            return;
        }
        Shape auxShape = ShapeInference.auxShape(node);
        if (auxShape != null) {
            node.setAux(take(buffers, auxShape));
        }
        Tensor out = node.isSideEffect() ? null : take(buffers, node.shape());
        Instruction instruction = KernelBinder.bind(node, out, NODE_VALUES, kernels);
        instruction.run();
        node.setValue(out);
    }
}
