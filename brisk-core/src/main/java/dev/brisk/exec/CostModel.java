package dev.brisk.exec;

import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.Attrs;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.tensor.Shape;

/**
 * What the scheduler knows about an instruction: whether it may run on one thread beside another one without
 * changing its result, and a rough time for it on one thread (multiply-adds at gemm speed, or bytes moved).
 */
final class CostModel {
    /** Single-thread gemm and convolution speed on the machines measured (BENCHMARKS.md), FLOP per ns. */
    private static final double FLOPS_PER_NANO = 90;
    /** Single-thread speed of memory-bound kernels (elementwise, optimizer steps), bytes per ns. */
    private static final double BYTES_PER_NANO = 40;

    private CostModel() {
    }

    /**
     * True when the kernel gives the same bits run inline on one thread as split over the pool. Gemm (and so
     * convolution) computes each output from the same blocks whatever range a thread gets; elementwise ops,
     * pooling, softmax and the optimizer steps work per element or per row; reductions and the filter gradient,
     * which add per-thread partial sums, choose their slots from the thread budget alone, so a nested call sums
     * the same slots in turn. Gathers, scatters, copies and dropout are left out: they are too small to pay.
     */
    static boolean runsAlone(Node n) {
        return switch (n.op()) {
            case MATMUL, CONV2D, CONV2D_GRAD_INPUT, CONV2D_GRAD_FILTER, UNARY, BINARY, REDUCE, BROADCAST_TO,
                 SOFTMAX, SOFTMAX_GRAD, SPARSE_SOFTMAX_XENT, SPARSE_SOFTMAX_XENT_GRAD, TRANSPOSE, UPDATE,
                 DROPOUT_GRAD -> true;
            // Pooling is per row too, but its time is far from its bytes (W2: a max-pool gradient moving 9 MB
            // takes 0.9 ms on one thread) and it splits well, so it is left to run split.
            default -> false;
        };
    }

    /** True for gemm and convolutions, whose time is multiply-adds; false for the memory-bound kernels. */
    static boolean computeBound(Node n) {
        return switch (n.op()) {
            case MATMUL, CONV2D, CONV2D_GRAD_INPUT, CONV2D_GRAD_FILTER -> true;
            default -> false;
        };
    }

    /** An estimate of the instruction's time on one thread, in nanoseconds. */
    static double oneThreadNanos(Node n) {
        return switch (n.op()) {
            case MATMUL -> {
                Shape c = n.shape();
                Shape a = n.input(0).shape();
                Attrs attrs = n.attrs() instanceof FusedAttrs fused ? fused.anchor().attrs() : n.attrs();
                long inner = ((MatMulAttrs) attrs).transA() ? a.dim(0) : a.dim(1);
                yield 2.0 * c.dim(0) * c.dim(1) * inner / FLOPS_PER_NANO;
            }
            // Multiply-adds: one per output value and kernel tap (input channels x kernel window).
            case CONV2D -> 2.0 * n.shape().size() * taps(n.input(1).shape()) / FLOPS_PER_NANO;
            case CONV2D_GRAD_INPUT -> 2.0 * n.input(0).shape().size() * taps(n.input(1).shape()) / FLOPS_PER_NANO;
            case CONV2D_GRAD_FILTER -> 2.0 * n.input(1).shape().size() * taps(n.shape()) / FLOPS_PER_NANO;
            // Multiply-adds of the per-head products, run from registers and L1 like gemm's.
            case ATTENTION, ATTENTION_GRAD -> {
                Node forward = n.op() == OpType.ATTENTION ? n : n.input(1);
                yield forward.attrs(AttentionAttrs.class).flops(forward.input(0).shape(),
                        forward.input(1).shape().dim(1), forward.shape().dim(3), n != forward) / FLOPS_PER_NANO;
            }
            // The logits and the probabilities kept beside them, and a float or two per row.
            case SPARSE_SOFTMAX_XENT, SPARSE_SOFTMAX_XENT_GRAD -> {
                Shape logits = n.op() == OpType.SPARSE_SOFTMAX_XENT ? n.input(0).shape() : n.shape();
                yield 4.0 * (2L * logits.size() + 2L * logits.dim(0)) / BYTES_PER_NANO;
            }
            case UPDATE -> {
                // Reads every input; writes the parameter and its optimizer slots back.
                long floats = 0;
                for (Node in : n.inputs()) {
                    floats += 2L * in.shape().size();
                }
                yield 4.0 * floats / BYTES_PER_NANO;
            }
            default -> {
                long floats = n.shape().size();
                for (Node in : n.inputs()) {
                    floats += in.shape().size();
                }
                yield 4.0 * floats / BYTES_PER_NANO;
            }
        };
    }

    /** Kernel window times input channels of a {@code (kh, kw, in, out)} kernel shape. */
    private static long taps(Shape kernel) {
        return (long) kernel.dim(0) * kernel.dim(1) * kernel.dim(2);
    }
}
