package dev.brisk.backend.jvm;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.ElementwiseChain.Broadcast;
import dev.brisk.backend.ElementwiseChain.Step;
import java.util.List;

/**
 * An {@link ElementwiseChain} in one pass: each block of {@link #BLOCK} elements goes through every step while it is
 * in L1, the running value in a per-thread block and the last step writing the output. Each step runs through the
 * same vector loops as the separate kernels ({@link VectorElementwise#unaryRange}, {@link VectorElementwise#row}),
 * and those are elementwise, so where a block starts changes no element's bits. A row input (a bias, a per-channel
 * scale) is read from a per-thread copy of the row repeated over a block's length, so every block, wherever it
 * starts in a row, is one stretch stepping by 1; a row longer than a block is read in place, blocks ending at its
 * ends.
 */
final class VectorChain {
    /** Elements per block: 4K floats, 16 KB, so the running value and each input's block stay in L1. */
    static final int BLOCK = 1 << 12;

    private VectorChain() {
    }

    static void run(ElementwiseChain chain, float[][] inputs, int[] inputOffsets, float[] out, int outOff) {
        int n = chain.size();
        if (Split.serial(n, VectorElementwise.GRAIN)) {
            range(chain, inputs, inputOffsets, out, outOff, 0, n);
            return;
        }
        ElementwiseArgs r = ElementwiseArgs.get();
        r.chain = chain;
        r.inputs = inputs;
        r.inputOffsets = inputOffsets;
        r.out = out;
        r.outOff = outOff;
        r.forRange(n, VectorElementwise.GRAIN, Split.CHUNKS_PER_THREAD,
                (g, i0, i1) -> range(g.chain, g.inputs, g.inputOffsets, g.out, g.outOff, i0, i1));
    }

    /** Elements {@code [i0, i1)} of the chain on this thread. */
    private static void range(ElementwiseChain chain, float[][] inputs, int[] inputOffsets, float[] out, int outOff,
                              int i0, int i1) {
        int cols = chain.rowLength();
        List<Broadcast> kinds = chain.inputs();
        int rowInputs = 0;
        for (int j = 0; j < kinds.size(); j++) {
            rowInputs += kinds.get(j) == Broadcast.ROW ? 1 : 0;
        }
        boolean tiled = rowInputs > 0 && cols <= BLOCK;
        float[] work = Scratch.get().chain(BLOCK + (tiled ? rowInputs * (BLOCK + cols) : 0));
        if (tiled) {
            for (int j = 0, at = BLOCK; j < kinds.size(); j++) {
                if (kinds.get(j) == Broadcast.ROW) {
                    for (int t = 0; t < BLOCK + cols; t += cols) {
                        System.arraycopy(inputs[j], inputOffsets[j], work, at + t, Math.min(cols, BLOCK + cols - t));
                    }
                    at += BLOCK + cols;
                }
            }
        }
        List<Step> steps = chain.steps();
        for (int i = i0; i < i1; ) {
            int len = Math.min(BLOCK, i1 - i);
            if (rowInputs > 0 && !tiled) {
                len = Math.min(len, cols - i % cols);
            }
            for (int s = 0; s < steps.size(); s++) {
                Step step = steps.get(s);
                boolean last = s == steps.size() - 1;
                float[] dst = last ? out : work;
                int dstOff = last ? outOff + i : 0;
                int a = step.left();
                float[] aArr = array(a, inputs, work, kinds, tiled);
                int aOff = offset(a, inputs, inputOffsets, kinds, tiled, cols, i);
                if (step.unary() != null) {
                    VectorElementwise.unaryRange(step.unary(), step.alpha(), aArr, aOff, dst, dstOff, len);
                } else {
                    int b = step.right();
                    VectorElementwise.row(step.binary(), step.alpha(), aArr, aOff, stride(a, kinds),
                            array(b, inputs, work, kinds, tiled), offset(b, inputs, inputOffsets, kinds, tiled, cols, i),
                            stride(b, kinds), dst, dstOff, len);
                }
            }
            i += len;
        }
    }

    /** The array operand {@code code} is read from. */
    private static float[] array(int code, float[][] inputs, float[] work, List<Broadcast> kinds, boolean tiled) {
        if (code == ElementwiseChain.PREVIOUS || (tiled && kinds.get(code) == Broadcast.ROW)) {
            return work;
        }
        return inputs[code];
    }

    /** Where operand {@code code}'s value for element {@code i} (the block's first) is. */
    private static int offset(int code, float[][] inputs, int[] inputOffsets, List<Broadcast> kinds, boolean tiled,
                              int cols, int i) {
        if (code == ElementwiseChain.PREVIOUS) {
            return 0;
        }
        return switch (kinds.get(code)) {
            case FULL -> inputOffsets[code] + i;
            case SCALAR -> inputOffsets[code];
            case ROW -> tiled ? tiledStart(code, kinds, cols) + i % cols : inputOffsets[code] + i % cols;
        };
    }

    /** Where row input {@code code}'s repeated copy starts in the work array. */
    private static int tiledStart(int code, List<Broadcast> kinds, int cols) {
        int at = BLOCK;
        for (int j = 0; j < code; j++) {
            at += kinds.get(j) == Broadcast.ROW ? BLOCK + cols : 0;
        }
        return at;
    }

    /** 0 for one value broadcast, 1 for a stretch of values. */
    private static int stride(int code, List<Broadcast> kinds) {
        return code != ElementwiseChain.PREVIOUS && kinds.get(code) == Broadcast.SCALAR ? 0 : 1;
    }
}
