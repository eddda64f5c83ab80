package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.AdadeltaUpdate;
import dev.brisk.ops.AdagradUpdate;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.AdamaxUpdate;
import dev.brisk.ops.AmsgradUpdate;
import dev.brisk.ops.FtrlUpdate;
import dev.brisk.ops.LionUpdate;
import dev.brisk.ops.NadamUpdate;
import dev.brisk.ops.AttentionGeometry;
import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.BatchNormAttrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.DropoutAttrs;
import dev.brisk.ops.ImageAugmentAttrs;
import dev.brisk.ops.LayerNormAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.NoiseAttrs;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PermuteAttrs;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.PoolGradAttrs;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.RmspropFullUpdate;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.SgdUpdate;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.SoftmaxAttrs;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.UpdateAttrs;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * Turns a node plus the tensors it reads and writes into an {@link Instruction}: all shape arithmetic (strides,
 * conv geometry) happens here, once, so eager and compiled execution run exactly the same kernel calls.
 */
public final class KernelBinder {
    private static final float[] ZERO = {0f};

    private KernelBinder() {
    }

    /**
     * Where a binder finds the tensor of each input and the state a node keeps for its gradient
     * ({@link ShapeInference#auxShape}: dropout's mask, a softmax cross-entropy's probabilities).
     */
    public interface Buffers {
        Tensor valueOf(Node node);

        Tensor auxOf(Node node);
    }

    /** False for the ops that need no kernel call: inputs, variables, constants and reshapes (views). */
    public static boolean callsKernel(OpType op) {
        return switch (op) {
            case INPUT, VARIABLE, CONSTANT, RESHAPE -> false;
            default -> true;
        };
    }

    /**
     * The instruction computing {@code node} into {@code out}, or null for nodes that need no kernel (inputs,
     * variables, constants and reshapes, which are views).
     */
    public static Instruction bind(Node node, Tensor out, Buffers buffers, Kernels k) {
        Tensor[] in = new Tensor[node.inputs().size()];
        for (int i = 0; i < in.length; i++) {
            in[i] = buffers.valueOf(node.input(i));
        }
        return switch (node.op()) {
            case INPUT, VARIABLE, CONSTANT, RESHAPE -> null;
            case UNARY -> unary(node.attrs(UnaryAttrs.class), in[0], out, k);
            case BINARY -> binary(node.attrs(BinaryAttrs.class), in[0], in[1], out, k);
            case MATMUL -> matmul(node.attrs(MatMulAttrs.class), in[0], in[1], out, k);
            case TRANSPOSE -> transpose(in[0], out, k);
            case CONCAT -> concat(node.attrs(AxisAttrs.class).axis(), in, out, k);
            case SLICE -> slice(node.attrs(AxisAttrs.class), in[0], out, k);
            case REDUCE -> reduce(node.attrs(ReduceAttrs.class), in[0], out, k);
            case BATCH_NORM_STATS -> {
                int channels = in[0].shape().dim(-1);
                int rows = in[0].size() / channels;
                yield () -> k.batchNormStatistics(in[0].data(), in[0].offset(), rows, channels, out.data(),
                        out.offset());
            }
            case BATCH_NORM, BATCH_NORM_PARAM_GRAD, BATCH_NORM_GRAD ->
                    batchNorm(node.op(), node.attrs(BatchNormAttrs.class), in, out, k);
            case BROADCAST_TO -> broadcastTo(in[0], out, k);
            case SOFTMAX -> softmax(node.attrs(SoftmaxAttrs.class), in[0], out, k);
            case SOFTMAX_GRAD -> softmaxGrad(node.attrs(SoftmaxAttrs.class), in[0], in[1], out, k);
            case GATHER_ROWS -> gather(in[0], in[1], out, k);
            case SCATTER_ROWS -> scatter(in[0], in[1], out, k);
            case CONV2D -> conv(in[0], in[1], out, node.attrs(ConvAttrs.class), k);
            case CONV2D_GRAD_INPUT -> convGradInput(node.attrs(ConvGradAttrs.class), in[0], in[1], out, k);
            case CONV2D_GRAD_FILTER -> convGradFilter(node.attrs(ConvGradAttrs.class), in[0], in[1], out, k);
            case MAX_POOL -> maxPool(node.attrs(PoolAttrs.class), in[0], buffers.auxOf(node), out, k);
            case AVG_POOL -> avgPool(node.attrs(PoolAttrs.class), in[0], out, k);
            case MAX_POOL_GRAD -> maxPoolGrad(node.attrs(PoolGradAttrs.class),
                    buffers.auxOf(ShapeInference.auxSource(node)), in[1], out, k);
            case AVG_POOL_GRAD -> avgPoolGrad(node.attrs(PoolGradAttrs.class), in[0], out, k);
            case DROPOUT -> dropout(node.attrs(DropoutAttrs.class), in[0], in[1], buffers.auxOf(node), out, k);
            case DROPOUT_GRAD -> dropoutGrad(node, in[0], buffers.auxOf(ShapeInference.auxSource(node)), out, k);
            case RANDOM_NORMAL -> randomNormal(node.attrs(NoiseAttrs.class), in[0], out, k);
            case IMAGE_AUGMENT -> imageAugment(node.attrs(ImageAugmentAttrs.class), in[0], null, in[1], out, k);
            case IMAGE_AUGMENT_GRAD -> imageAugment(node.attrs(ImageAugmentAttrs.class), in[0], in[1], in[2], out, k);
            case SPARSE_SOFTMAX_XENT -> {
                Tensor probs = buffers.auxOf(node);
                int rows = in[0].shape().dim(0);
                int cols = in[0].shape().dim(1);
                yield () -> k.sparseSoftmaxCrossEntropy(in[0].data(), in[0].offset(), in[1].data(), in[1].offset(),
                        probs.data(), probs.offset(), out.data(), out.offset(), rows, cols);
            }
            case SPARSE_SOFTMAX_XENT_GRAD -> {
                Tensor probs = buffers.auxOf(ShapeInference.auxSource(node));
                int rows = out.shape().dim(0);
                int cols = out.shape().dim(1);
                yield () -> k.sparseSoftmaxCrossEntropyBackward(probs.data(), probs.offset(), in[1].data(),
                        in[1].offset(), in[0].data(), in[0].offset(), out.data(), out.offset(), rows, cols);
            }
            case ASSIGN -> () -> k.copy(in[1].data(), in[1].offset(), in[0].data(), in[0].offset(), in[0].size());
            case UPDATE -> update(node.attrs(UpdateAttrs.class), in, k);
            case BATCH_MATMUL -> batchMatmul(node.attrs(MatMulAttrs.class), in[0], in[1], out, k);
            case PERMUTE -> permute(node.attrs(PermuteAttrs.class).perm(), in[0], out, k);
            case LAYER_NORM, LAYER_NORM_PARAM_GRAD, LAYER_NORM_GRAD ->
                    layerNorm(node.op(), node.attrs(LayerNormAttrs.class).epsilon(), in, out, k);
            case EMBEDDING_LOOKUP -> embeddingLookup(in[0], in[1], out, k);
            case EMBEDDING_GRAD -> embeddingGrad(in[0], in[1], out, k);
            case NONZERO_MASK -> () -> k.nonzeroMask(in[0].data(), in[0].offset(), out.data(), out.offset(),
                    out.size());
            case RECURRENT_SEQUENCE -> recurrent(node, in, buffers.auxOf(node), out, k);
            case RECURRENT_SEQUENCE_GRAD -> recurrentGrad(node, in, buffers.auxOf(ShapeInference.auxSource(node)),
                    buffers.auxOf(node), out, k);
            case ATTENTION -> attention(node, in, buffers.auxOf(node), out, k);
            case ATTENTION_GRAD -> attentionGrad(node, in, buffers.auxOf(ShapeInference.auxSource(node)), out, k);
        };
    }

    /** An ATTENTION: inputs q, k, v and optionally the mask; the row statistics go to its aux tensor. */
    private static Instruction attention(Node node, Tensor[] in, Tensor stats, Tensor out, Kernels k) {
        AttentionGeometry g = AttentionGeometry.of(node);
        Tensor mask = in.length > 3 ? in[3] : null;
        float[] maskData = mask == null ? null : mask.data();
        int maskOff = mask == null ? 0 : mask.offset();
        return () -> k.attention(g, in[0].data(), in[0].offset(), in[1].data(), in[1].offset(), in[2].data(),
                in[2].offset(), maskData, maskOff, out.data(), out.offset(), stats.data(), stats.offset());
    }

    /** An ATTENTION_GRAD: inputs dy, the ATTENTION (its output), then its q, k, v and mask. */
    private static Instruction attentionGrad(Node node, Tensor[] in, Tensor stats, Tensor out, Kernels k) {
        AttentionGeometry g = AttentionGeometry.of(node.input(1));
        Tensor mask = in.length > 5 ? in[5] : null;
        float[] maskData = mask == null ? null : mask.data();
        int maskOff = mask == null ? 0 : mask.offset();
        return () -> k.attentionBackward(g, in[2].data(), in[2].offset(), in[3].data(), in[3].offset(), in[4].data(),
                in[4].offset(), maskData, maskOff, in[1].data(), in[1].offset(), stats.data(), stats.offset(),
                in[0].data(), in[0].offset(), out.data(), out.offset());
    }

    private static Instruction unary(UnaryAttrs a, Tensor x, Tensor y, Kernels k) {
        int n = y.size();
        return () -> k.unary(a.fn(), a.alpha(), x.data(), x.offset(), y.data(), y.offset(), n);
    }

    private static Instruction binary(BinaryAttrs attrs, Tensor a, Tensor b, Tensor out, Kernels k) {
        Shape s = out.shape();
        int[] dims = s.dims();
        int[] as = a.shape().broadcastStrides(s);
        int[] bs = b.shape().broadcastStrides(s);
        return () -> k.binary(attrs.fn(), attrs.alpha(), a.data(), a.offset(), as, b.data(), b.offset(), bs,
                out.data(), out.offset(), dims);
    }

    private static Instruction matmul(MatMulAttrs t, Tensor a, Tensor b, Tensor c, Kernels k) {
        int m = c.shape().dim(0);
        int n = c.shape().dim(1);
        int inner = t.transA() ? a.shape().dim(0) : a.shape().dim(1);
        int lda = a.shape().dim(1);
        int ldb = b.shape().dim(1);
        return () -> k.gemm(t.transA(), t.transB(), m, n, inner, a.data(), a.offset(), lda, b.data(), b.offset(),
                ldb, c.data(), c.offset(), n, false);
    }

    /** Elements before {@code axis} (rows) and from {@code axis} on (row length) of a shape. */
    private static int[] rowsAndWidth(Shape s, int axis) {
        int ax = axis < 0 ? s.rank() + axis : axis;
        int rows = 1;
        for (int i = 0; i < ax; i++) {
            rows *= s.dim(i);
        }
        return new int[] {rows, s.size() / Math.max(1, rows)};
    }

    private static Instruction concat(int axis, Tensor[] in, Tensor out, Kernels k) {
        int[] outRw = rowsAndWidth(out.shape(), axis);
        int[] widths = new int[in.length];
        for (int i = 0; i < in.length; i++) {
            widths[i] = rowsAndWidth(in[i].shape(), axis)[1];
        }
        return () -> {
            int col = 0;
            for (int i = 0; i < in.length; i++) {
                k.copy2d(in[i].data(), in[i].offset(), widths[i], out.data(), out.offset() + col, outRw[1], outRw[0],
                        widths[i]);
                col += widths[i];
            }
        };
    }

    private static Instruction slice(AxisAttrs a, Tensor x, Tensor y, Kernels k) {
        int[] xRw = rowsAndWidth(x.shape(), a.axis());
        int[] yRw = rowsAndWidth(y.shape(), a.axis());
        int inner = yRw[1] / Math.max(1, a.length());
        int start = a.start() * inner;
        return () -> k.copy2d(x.data(), x.offset() + start, xRw[1], y.data(), y.offset(), yRw[1], yRw[0], yRw[1]);
    }

    private static Instruction transpose(Tensor x, Tensor y, Kernels k) {
        int rows = x.shape().dim(-2);
        int cols = x.shape().dim(-1);
        int batch = x.size() / Math.max(1, rows * cols);
        return () -> k.transpose(x.data(), x.offset(), y.data(), y.offset(), batch, rows, cols);
    }

    /**
     * A batch normalization or one of its gradients over {@code [rows, channels]}: BATCH_NORM reads x, statistics,
     * gamma and beta; the gradients read dy, x and statistics, and BATCH_NORM_GRAD also gamma and the param sums.
     */
    private static Instruction batchNorm(OpType op, BatchNormAttrs a, Tensor[] in, Tensor out, Kernels k) {
        return batchNorm(op, a, in, null, 0f, null, out, k);
    }

    /**
     * A batch normalization or one of its gradients, as {@link #batchNorm(OpType, BatchNormAttrs, Tensor[], Tensor,
     * Kernels)}, with the fusions its kernels take: BATCH_NORM applies {@code activation} (or none, when null) to
     * its output; the gradients read {@code in[0]} (dy) gated by relu's output {@code gate} (or as it is, when
     * null).
     */
    static Instruction batchNorm(OpType op, BatchNormAttrs a, Tensor[] in, UnaryFn activation, float alpha,
                                 Tensor gate, Tensor out, Kernels k) {
        float eps = a.epsilon();
        Tensor x = op == OpType.BATCH_NORM ? in[0] : in[1];
        int channels = x.shape().dim(-1);
        int rows = x.size() / channels;
        float[] gateData = gate == null ? null : gate.data();
        int gateOff = gate == null ? 0 : gate.offset();
        return switch (op) {
            case BATCH_NORM -> () -> k.batchNorm(eps, x.data(), x.offset(), in[1].data(), in[1].offset(),
                    in[2].data(), in[2].offset(), in[3].data(), in[3].offset(), activation, alpha, out.data(),
                    out.offset(), rows, channels);
            case BATCH_NORM_PARAM_GRAD -> () -> k.batchNormParamGrad(eps, in[0].data(), in[0].offset(), gateData,
                    gateOff, x.data(), x.offset(), in[2].data(), in[2].offset(), out.data(), out.offset(), rows,
                    channels);
            case BATCH_NORM_GRAD -> () -> k.batchNormGrad(eps, a.training(), in[0].data(), in[0].offset(), gateData,
                    gateOff, x.data(), x.offset(), in[2].data(), in[2].offset(), in[3].data(), in[3].offset(),
                    in[4].data(), in[4].offset(), out.data(), out.offset(), rows, channels);
            default -> throw new IllegalArgumentException(op + " is not a batch normalization");
        };
    }

    /**
     * A batch normalization's parameter or input gradient ({@code in} as for {@link #batchNorm}) whose {@code dy}
     * is gated by relu of the forward normalization with {@code gamma} and {@code beta}, relu's input recomputed
     * from {@code x} ({@link Kernels#batchNormParamGradUnderRelu}).
     */
    static Instruction batchNormUnderRelu(OpType op, BatchNormAttrs a, Tensor[] in, Tensor gamma, Tensor beta,
                                          Tensor out, Kernels k) {
        float eps = a.epsilon();
        Tensor dy = in[0];
        Tensor x = in[1];
        Tensor stats = in[2];
        int channels = x.shape().dim(-1);
        int rows = x.size() / channels;
        return switch (op) {
            case BATCH_NORM_PARAM_GRAD -> () -> k.batchNormParamGradUnderRelu(eps, dy.data(), dy.offset(), x.data(),
                    x.offset(), stats.data(), stats.offset(), gamma.data(), gamma.offset(), beta.data(), beta.offset(),
                    out.data(), out.offset(), rows, channels);
            case BATCH_NORM_GRAD -> () -> k.batchNormGradUnderRelu(eps, a.training(), dy.data(), dy.offset(),
                    x.data(), x.offset(), stats.data(), stats.offset(), gamma.data(), gamma.offset(), beta.data(),
                    beta.offset(), in[4].data(), in[4].offset(), out.data(), out.offset(), rows, channels);
            default -> throw new IllegalArgumentException(op + " is not a batch normalization gradient");
        };
    }

    private static Instruction reduce(ReduceAttrs a, Tensor x, Tensor y, Kernels k) {
        int[] dims = x.shape().dims();
        boolean[] mask = ShapeInference.reduceMask(dims.length, a.axes());
        return () -> k.reduce(a.fn(), x.data(), x.offset(), dims, mask, y.data(), y.offset());
    }

    private static Instruction broadcastTo(Tensor x, Tensor y, Kernels k) {
        if (x.size() == y.size()) {
            return () -> k.copy(x.data(), x.offset(), y.data(), y.offset(), y.size());
        }
        if (x.size() == 1) {
            // A scalar (the loss's gradient, once a step) is a fill: no vector loop over a row of stride 0, whose
            // C2 code allocated boxed vectors per step in one JVM of the allocation test.
            return () -> k.fill(y.data(), y.offset(), y.size(), x.data()[x.offset()]);
        }
        int[] dims = y.shape().dims();
        int[] xs = x.shape().broadcastStrides(y.shape());
        int[] zs = new int[dims.length];
        return () -> k.binary(BinaryFn.ADD, 0f, x.data(), x.offset(), xs, ZERO, 0, zs, y.data(), y.offset(), dims);
    }

    private static Instruction softmax(SoftmaxAttrs a, Tensor x, Tensor y, Kernels k) {
        boolean log = a.log();
        int[] strided = alongAxis(x.shape(), a.axis());
        if (strided != null) {
            return () -> k.softmaxAlongAxis(log, x.data(), x.offset(), y.data(), y.offset(), strided[0], strided[1],
                    strided[2]);
        }
        int cols = x.shape().dim(-1);
        int rows = x.size() / cols;
        return () -> k.softmax(log, x.data(), x.offset(), y.data(), y.offset(), rows, cols);
    }

    private static Instruction softmaxGrad(SoftmaxAttrs a, Tensor y, Tensor dy, Tensor dx, Kernels k) {
        boolean log = a.log();
        int[] strided = alongAxis(y.shape(), a.axis());
        if (strided != null) {
            return () -> k.softmaxAlongAxisBackward(log, y.data(), y.offset(), dy.data(), dy.offset(), dx.data(),
                    dx.offset(), strided[0], strided[1], strided[2]);
        }
        int cols = y.shape().dim(-1);
        int rows = y.size() / cols;
        return () -> k.softmaxBackward(log, y.data(), y.offset(), dy.data(), dy.offset(), dx.data(), dx.offset(),
                rows, cols);
    }

    private static Instruction gather(Tensor x, Tensor index, Tensor y, Kernels k) {
        int rows = x.shape().dim(0);
        int cols = x.shape().dim(1);
        return () -> k.gatherRows(x.data(), x.offset(), index.data(), index.offset(), y.data(), y.offset(), rows,
                cols);
    }

    private static Instruction scatter(Tensor dy, Tensor index, Tensor dx, Kernels k) {
        int rows = dx.shape().dim(0);
        int cols = dx.shape().dim(1);
        return () -> k.scatterRows(dy.data(), dy.offset(), index.data(), index.offset(), dx.data(), dx.offset(),
                rows, cols);
    }

    private static Instruction conv(Tensor x, Tensor w, Tensor y, ConvAttrs a, Kernels k) {
        ConvGeometry g = ConvGeometry.of(x.shape(), w.shape(), a);
        return () -> k.conv2d(g, x.data(), x.offset(), w.data(), w.offset(), y.data(), y.offset());
    }

    private static Instruction convGradInput(ConvGradAttrs a, Tensor dy, Tensor w, Tensor dx, Kernels k) {
        ConvGeometry g = ConvGeometry.of(dx.shape(), w.shape(), a.conv());
        return () -> k.conv2dBackwardInput(g, dy.data(), dy.offset(), w.data(), w.offset(), dx.data(), dx.offset());
    }

    private static Instruction convGradFilter(ConvGradAttrs a, Tensor x, Tensor dy, Tensor dw, Kernels k) {
        ConvGeometry g = ConvGeometry.of(x.shape(), dw.shape(), a.conv());
        return () -> k.conv2dBackwardFilter(g, x.data(), x.offset(), dy.data(), dy.offset(), dw.data(), dw.offset());
    }

    /** Max pooling, recording each maximum's cell in {@code cells} unless it is null (no gradient reads them). */
    private static Instruction maxPool(PoolAttrs a, Tensor x, Tensor cells, Tensor y, Kernels k) {
        PoolGeometry g = PoolGeometry.of(x.shape(), a);
        if (cells == null) {
            return () -> k.maxPool2d(g, x.data(), x.offset(), y.data(), y.offset(), null, 0);
        }
        return () -> k.maxPool2d(g, x.data(), x.offset(), y.data(), y.offset(), cells.data(), cells.offset());
    }

    private static Instruction avgPool(PoolAttrs a, Tensor x, Tensor y, Kernels k) {
        PoolGeometry g = PoolGeometry.of(x.shape(), a);
        return () -> k.avgPool2d(g, x.data(), x.offset(), y.data(), y.offset());
    }

    private static Instruction maxPoolGrad(PoolGradAttrs a, Tensor cells, Tensor dy, Tensor dx, Kernels k) {
        PoolGeometry g = PoolGeometry.of(a.resultShape(), a.pool());
        return () -> k.maxPool2dBackward(g, cells.data(), cells.offset(), dy.data(), dy.offset(), dx.data(),
                dx.offset());
    }

    private static Instruction avgPoolGrad(PoolGradAttrs a, Tensor dy, Tensor dx, Kernels k) {
        PoolGeometry g = PoolGeometry.of(a.resultShape(), a.pool());
        return () -> k.avgPool2dBackward(g, dy.data(), dy.offset(), dx.data(), dx.offset());
    }

    private static Instruction dropout(DropoutAttrs a, Tensor x, Tensor seed, Tensor mask, Tensor y, Kernels k) {
        int n = y.size();
        return () -> k.dropout(a.rate(), ((long) seed.get(0)) * 0x9E3779B97F4A7C15L ^ a.salt(), x.data(), x.offset(),
                mask.data(), mask.offset(), y.data(), y.offset(), n);
    }

    /** Normal noise whose stream is the step's seed mixed with the layer's salt, as dropout's mask. */
    private static Instruction randomNormal(NoiseAttrs a, Tensor seed, Tensor y, Kernels k) {
        int n = y.size();
        return () -> k.randomNormal(a.stddev(), ((long) seed.get(0)) * 0x9E3779B97F4A7C15L ^ a.salt(), y.data(),
                y.offset(), n);
    }

    /**
     * An image augmentation (dy null) or its gradient, its generator seeded as dropout's mask is: the step's seed
     * mixed with the layer's salt.
     */
    private static Instruction imageAugment(ImageAugmentAttrs a, Tensor x, Tensor dy, Tensor seed, Tensor out,
            Kernels k) {
        Shape s = x.shape();
        return () -> {
            long mixed = ((long) seed.get(0)) * 0x9E3779B97F4A7C15L ^ a.salt();
            if (dy == null) {
                k.imageAugment(a.augment(), mixed, x.data(), x.offset(), out.data(), out.offset(), s.dim(0), s.dim(1),
                        s.dim(2), s.dim(3));
            } else {
                k.imageAugmentBackward(a.augment(), mixed, x.data(), x.offset(), dy.data(), dy.offset(), out.data(),
                        out.offset(), s.dim(0), s.dim(1), s.dim(2), s.dim(3));
            }
        };
    }

    /**
     * {@code dx = dy * mask * (1 / keep)} in one pass ({@link Kernels#binaryActivation}, the bits of the product then
     * the scale): as two calls it wrote {@code dx} and read it back.
     */
    private static Instruction dropoutGrad(Node node, Tensor dy, Tensor mask, Tensor dx, Kernels k) {
        float scale = 1f / (1f - node.input(1).attrs(DropoutAttrs.class).rate());
        int n = dx.size();
        return () -> k.binaryActivation(BinaryFn.MUL, 0f, dy.data(), dy.offset(), mask.data(), mask.offset(),
                UnaryFn.SCALE, scale, dx.data(), dx.offset(), n);
    }

    private static Instruction update(UpdateAttrs a, Tensor[] in, Kernels k) {
        Tensor p = in[0];
        Tensor g = in[1];
        Tensor hyper = in[in.length - 1];
        int n = p.size();
        return switch (a) {
            case AdamUpdate adam -> {
                Tensor m = in[2];
                Tensor v = in[3];
                yield () -> k.adamStep(p.data(), p.offset(), g.data(), g.offset(), m.data(), m.offset(), v.data(),
                        v.offset(), n, hyper.get(AdamUpdate.LR_T), adam.beta1(), adam.beta2(),
                        hyper.get(AdamUpdate.EPS_HAT), hyper.get(AdamUpdate.DECOUPLED_DECAY));
            }
            case SgdUpdate sgd -> {
                Tensor vel = in.length == 4 ? in[2] : null;
                yield () -> k.sgdStep(p.data(), p.offset(), g.data(), g.offset(), vel == null ? null : vel.data(),
                        vel == null ? 0 : vel.offset(), n, hyper.get(SgdUpdate.LR), vel == null ? 0f : sgd.momentum(),
                        sgd.nesterov(), hyper.get(SgdUpdate.DECAY));
            }
            case RmspropUpdate rms -> {
                Tensor ms = in[2];
                yield () -> k.rmspropStep(p.data(), p.offset(), g.data(), g.offset(), ms.data(), ms.offset(), n,
                        hyper.get(RmspropUpdate.LR), rms.rho(), hyper.get(RmspropUpdate.EPS));
            }
            case AdagradUpdate _ -> {
                Tensor acc = in[2];
                yield () -> k.adagradStep(p.data(), p.offset(), g.data(), g.offset(), acc.data(), acc.offset(), n,
                        hyper.get(AdagradUpdate.LR), hyper.get(AdagradUpdate.EPS), hyper.get(AdagradUpdate.DECAY));
            }
            case AdadeltaUpdate ada -> {
                Tensor ag = in[2];
                Tensor ad = in[3];
                yield () -> k.adadeltaStep(p.data(), p.offset(), g.data(), g.offset(), ag.data(), ag.offset(),
                        ad.data(), ad.offset(), n, hyper.get(AdadeltaUpdate.LR), ada.rho(),
                        hyper.get(AdadeltaUpdate.EPS), hyper.get(AdadeltaUpdate.DECAY));
            }
            case AdamaxUpdate max -> {
                Tensor m = in[2];
                Tensor u = in[3];
                yield () -> k.adamaxStep(p.data(), p.offset(), g.data(), g.offset(), m.data(), m.offset(), u.data(),
                        u.offset(), n, hyper.get(AdamaxUpdate.LR_T), max.beta1(), max.beta2(),
                        hyper.get(AdamaxUpdate.EPS), hyper.get(AdamaxUpdate.DECAY));
            }
            case NadamUpdate nadam -> {
                Tensor m = in[2];
                Tensor v = in[3];
                yield () -> k.nadamStep(p.data(), p.offset(), g.data(), g.offset(), m.data(), m.offset(), v.data(),
                        v.offset(), n, hyper.get(NadamUpdate.M_RATE), hyper.get(NadamUpdate.G_RATE),
                        hyper.get(NadamUpdate.V_CORRECTION), nadam.beta1(), nadam.beta2(), hyper.get(NadamUpdate.EPS),
                        hyper.get(NadamUpdate.DECAY));
            }
            case LionUpdate lion -> {
                Tensor m = in[2];
                yield () -> k.lionStep(p.data(), p.offset(), g.data(), g.offset(), m.data(), m.offset(), n,
                        hyper.get(LionUpdate.LR), lion.beta1(), lion.beta2(), hyper.get(LionUpdate.DECAY));
            }
            case AmsgradUpdate ams -> {
                Tensor m = in[2];
                Tensor v = in[3];
                Tensor vHat = in[4];
                yield () -> k.amsgradStep(p.data(), p.offset(), g.data(), g.offset(), m.data(), m.offset(), v.data(),
                        v.offset(), vHat.data(), vHat.offset(), n, hyper.get(AdamUpdate.LR_T), ams.beta1(),
                        ams.beta2(), hyper.get(AdamUpdate.EPS_HAT), hyper.get(AdamUpdate.DECOUPLED_DECAY));
            }
            case RmspropFullUpdate rms -> {
                // slots: mean square, then momentum (when momentum > 0), then mean gradient (when centred)
                Tensor ms = in[2];
                Tensor mom = rms.momentum() > 0 ? in[3] : null;
                Tensor mg = rms.centered() ? in[rms.momentum() > 0 ? 4 : 3] : null;
                yield () -> k.rmspropFullStep(p.data(), p.offset(), g.data(), g.offset(), ms.data(), ms.offset(),
                        mom == null ? null : mom.data(), mom == null ? 0 : mom.offset(),
                        mg == null ? null : mg.data(), mg == null ? 0 : mg.offset(), n,
                        hyper.get(RmspropFullUpdate.LR), rms.rho(), rms.momentum(), hyper.get(RmspropFullUpdate.EPS),
                        hyper.get(RmspropFullUpdate.DECAY));
            }
            case FtrlUpdate ftrl -> {
                Tensor acc = in[2];
                Tensor lin = in[3];
                yield () -> k.ftrlStep(p.data(), p.offset(), g.data(), g.offset(), acc.data(), acc.offset(),
                        lin.data(), lin.offset(), n, hyper.get(FtrlUpdate.LR), ftrl.learningRatePower(), ftrl.l1(),
                        hyper.get(FtrlUpdate.TWO_L2), ftrl.shrinkage2(), hyper.get(FtrlUpdate.DECAY));
            }
        };
    }

    /**
     * {@code {outer, length, inner}} of a softmax along {@code axis} that is not the last (the elements before the
     * axis, along it, and after it), or null for the last axis, which the row-wise kernels take.
     */
    private static int[] alongAxis(Shape s, int axis) {
        int ax = axis < 0 ? s.rank() + axis : axis;
        if (ax == s.rank() - 1 || s.rank() == 0) {
            return null;
        }
        int outer = 1;
        for (int i = 0; i < ax; i++) {
            outer *= s.dim(i);
        }
        int inner = 1;
        for (int i = ax + 1; i < s.rank(); i++) {
            inner *= s.dim(i);
        }
        return new int[] {outer, s.dim(ax), inner};
    }

    /**
     * A batched product over dense operands: each batch entry of A is {@code m x k} (or {@code k x m} stored), of B
     * {@code k x n} (or {@code n x k}), of C {@code m x n}; an operand that is a plain matrix has batch stride 0.
     */
    private static Instruction batchMatmul(MatMulAttrs t, Tensor a, Tensor b, Tensor c, Kernels k) {
        Shape cs = c.shape();
        int m = cs.dim(-2);
        int n = cs.dim(-1);
        int inner = t.transA() ? a.shape().dim(-2) : a.shape().dim(-1);
        int batch = c.size() / Math.max(1, m * n);
        int aStride = a.shape().rank() == 2 ? 0 : m * inner;
        int bStride = b.shape().rank() == 2 ? 0 : inner * n;
        return () -> k.batchedGemm(t.transA(), t.transB(), batch, m, n, inner, a.data(), a.offset(), aStride,
                b.data(), b.offset(), bStride, c.data(), c.offset());
    }

    private static Instruction permute(int[] perm, Tensor x, Tensor y, Kernels k) {
        int[] dims = x.shape().dims();
        int[] order = perm.clone();
        return () -> k.permute(x.data(), x.offset(), dims, order, y.data(), y.offset());
    }

    /**
     * A layer normalization or one of its gradients over {@code [rows, cols]} (the last axis): LAYER_NORM reads x,
     * gamma and beta; its gradients read dy and x, and LAYER_NORM_GRAD also gamma.
     */
    private static Instruction layerNorm(OpType op, float eps, Tensor[] in, Tensor out, Kernels k) {
        Tensor x = op == OpType.LAYER_NORM ? in[0] : in[1];
        int cols = x.shape().dim(-1);
        int rows = x.size() / Math.max(1, cols);
        return switch (op) {
            case LAYER_NORM -> () -> k.layerNorm(eps, x.data(), x.offset(), in[1].data(), in[1].offset(),
                    in[2].data(), in[2].offset(), out.data(), out.offset(), rows, cols);
            case LAYER_NORM_PARAM_GRAD -> () -> k.layerNormParamGrad(eps, in[0].data(), in[0].offset(), x.data(),
                    x.offset(), out.data(), out.offset(), rows, cols);
            case LAYER_NORM_GRAD -> () -> k.layerNormGrad(eps, in[0].data(), in[0].offset(), x.data(), x.offset(),
                    in[2].data(), in[2].offset(), out.data(), out.offset(), rows, cols);
            default -> throw new IllegalArgumentException(op + " is not a layer normalization");
        };
    }

    private static Instruction embeddingLookup(Tensor table, Tensor ids, Tensor out, Kernels k) {
        int vocab = table.shape().dim(0);
        int dim = table.shape().dim(1);
        int count = ids.size();
        return () -> k.embeddingLookup(table.data(), table.offset(), vocab, dim, ids.data(), ids.offset(), count,
                out.data(), out.offset());
    }

    private static Instruction embeddingGrad(Tensor dy, Tensor ids, Tensor dTable, Kernels k) {
        int vocab = dTable.shape().dim(0);
        int dim = dTable.shape().dim(1);
        int count = ids.size();
        return () -> k.embeddingGrad(dy.data(), dy.offset(), ids.data(), ids.offset(), count, dTable.data(),
                dTable.offset(), vocab, dim);
    }

    private static Instruction recurrent(Node node, Tensor[] in, Tensor state, Tensor out, Kernels k) {
        RecurrentAttrs a = node.attrs(RecurrentAttrs.class);
        RecurrentGeometry g = ShapeInference.recurrentGeometry(node);
        Tensor x = in[0];
        Tensor w = in[1];
        Tensor u = in[2];
        Tensor b = in[3];
        Tensor mask = a.masked() ? in[a.maskInput()] : null;
        Tensor init = a.initialState() ? in[a.initialStateInput()] : null;
        return () -> k.recurrentForward(g, x.data(), x.offset(), w.data(), w.offset(), u.data(), u.offset(),
                b.data(), b.offset(), mask == null ? null : mask.data(), mask == null ? 0 : mask.offset(),
                init == null ? null : init.data(), init == null ? 0 : init.offset(), state.data(), state.offset(),
                out.data(), out.offset());
    }

    private static Instruction recurrentGrad(Node node, Tensor[] in, Tensor state, Tensor scratch, Tensor out,
                                             Kernels k) {
        RecurrentAttrs a = node.attrs(RecurrentAttrs.class);
        RecurrentGeometry g = ShapeInference.recurrentGeometry(node.input(1));
        Tensor dy = in[0];
        Tensor w = in[2];
        Tensor u = in[3];
        Tensor mask = a.masked() ? in[4] : null;
        return () -> k.recurrentBackward(g, dy.data(), dy.offset(), w.data(), w.offset(), u.data(), u.offset(),
                mask == null ? null : mask.data(), mask == null ? 0 : mask.offset(), state.data(), state.offset(),
                scratch.data(), scratch.offset(), out.data(), out.offset(), a.inputGradient());
    }
}
