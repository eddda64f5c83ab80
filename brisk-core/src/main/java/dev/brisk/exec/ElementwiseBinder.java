package dev.brisk.exec;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.ElementwiseChain.Broadcast;
import dev.brisk.backend.ElementwiseChain.Step;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds a general elementwise chain ({@link FusedChain#elementwise}) to one {@link Kernels#elementwiseChain} call:
 * each node becomes a step reading the previous node's value or an input of the chain (a value from outside it,
 * read whole, as a row or as one value), each input listed once however many steps read it.
 */
final class ElementwiseBinder {
    private ElementwiseBinder() {
    }

    /** The instruction computing chain {@code g} into {@code out}, the buffer of its last node. */
    static Instruction bind(FusedChain g, Tensor out, KernelBinder.Buffers buffers, Kernels k) {
        Shape shape = g.last().shape();
        List<Node> inputs = new ArrayList<>();
        List<Broadcast> kinds = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        Node previous = null;
        for (Node n : g.nodes()) {
            int left = operand(n.input(0), previous, shape, inputs, kinds);
            if (n.op() == OpType.UNARY) {
                UnaryAttrs a = n.attrs(UnaryAttrs.class);
                steps.add(Step.unary(a.fn(), a.alpha(), left));
            } else {
                BinaryAttrs a = n.attrs(BinaryAttrs.class);
                steps.add(Step.binary(a.fn(), a.alpha(), left, operand(n.input(1), previous, shape, inputs, kinds)));
            }
            previous = n;
        }
        ElementwiseChain chain = new ElementwiseChain(steps, kinds, shape.size(),
                shape.rank() == 0 ? 1 : shape.dim(-1));
        float[][] data = new float[inputs.size()][];
        int[] offsets = new int[inputs.size()];
        for (int i = 0; i < data.length; i++) {
            Tensor t = buffers.valueOf(inputs.get(i));
            data[i] = t.data();
            offsets[i] = t.offset();
        }
        return () -> k.elementwiseChain(chain, data, offsets, out.data(), out.offset());
    }

    /** The operand code of {@code x}: the previous step's value, or its index among the chain's inputs. */
    private static int operand(Node x, Node previous, Shape shape, List<Node> inputs, List<Broadcast> kinds) {
        if (x == previous) {
            return ElementwiseChain.PREVIOUS;
        }
        int i = inputs.indexOf(x);
        if (i < 0) {
            Broadcast kind = ChainLinks.broadcastOf(x.shape(), shape);
            if (kind == null) {
                throw new IllegalStateException("elementwise chain ending at " + shape + " cannot read " + x);
            }
            inputs.add(x);
            kinds.add(kind);
            i = inputs.size() - 1;
        }
        return i;
    }
}
