package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.BatchNormAttrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.PoolGradAttrs;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/** Binds a {@link FusedChain} to its fused kernel call, as {@link KernelBinder} does for a single node. */
public final class FusedBinder {
    private FusedBinder() {
    }

    /** The instruction computing the whole chain into {@code out}, the buffer of its last node. */
    public static Instruction bind(FusedChain g, Tensor out, KernelBinder.Buffers buffers, Kernels k) {
        if (g.elementwise()) {
            return ElementwiseBinder.bind(g, out, buffers, k);
        }
        Node a = g.anchor();
        Tensor first = buffers.valueOf(a.input(0));
        Tensor second = buffers.valueOf(a.input(1));
        if (g.kept() != null) {
            return keepingInput(g, first, second, bias(g, buffers), buffers.valueOf(g.kept()), out, k);
        }
        if (g.gate() != null && a.op() == OpType.BATCH_NORM) {
            return normalizedBinary(g, buffers, out, k);
        }
        if (g.gate() != null && a.op() == OpType.MATMUL) {
            return productBinary(g, first, second, bias(g, buffers), out, buffers, k);
        }
        if (g.gate() != null) {
            BinaryAttrs gate = g.gate().attrs(BinaryAttrs.class);
            Node pool = ShapeInference.auxSource(a);
            // Relu's gradient of the pooled input itself comes from the pool's cells, without reading that input.
            Tensor by = Fusion.gatedByCells(g) ? null : buffers.valueOf(g.gate().input(0));
            return gatedPoolGradient(a.attrs(PoolGradAttrs.class), buffers.auxOf(pool), second, gate.fn(), gate.alpha(),
                    by, out, k);
        }
        Tensor bias = g.bias() == null ? null : buffers.valueOf(g.bias());
        UnaryFn fn = g.activation() == null ? null : g.activation().attrs(UnaryAttrs.class).fn();
        float alpha = g.activation() == null ? 0f : g.activation().attrs(UnaryAttrs.class).alpha();
        if (a.op() == OpType.BINARY) {
            BinaryAttrs op = a.attrs(BinaryAttrs.class);
            return () -> k.binaryActivation(op.fn(), op.alpha(), first.data(), first.offset(), second.data(),
                    second.offset(), fn, alpha, out.data(), out.offset(), out.size());
        }
        if (a.op() == OpType.BATCH_NORM) {
            return KernelBinder.batchNorm(OpType.BATCH_NORM, a.attrs(BatchNormAttrs.class), inputsOf(a, buffers), fn,
                    alpha, null, out, k);
        }
        if (g.last().op() == OpType.MAX_POOL) {
            Node pool = g.last();
            return convPool(a.attrs(ConvAttrs.class), first, second, bias, fn, alpha, pool.attrs(PoolAttrs.class),
                    pool.input(0).shape(), out, buffers.auxOf(pool), k);
        }
        return switch (a.op()) {
            case CONV2D -> conv(a.attrs(ConvAttrs.class), first, second, bias, fn, alpha, out, k);
            case MATMUL -> matmul(a.attrs(MatMulAttrs.class), first, second, bias, fn, alpha, out, k);
            default -> throw new IllegalStateException("no fused kernel for " + a);
        };
    }

    /**
     * The call in which {@code reader} (a bias gradient's sums or a filter gradient) routes routed chain {@code g}'s
     * value from the pool's cells and the pooled gradient as it reads it (see {@link Fusion}).
     */
    public static Instruction bindRoutedReader(Node reader, FusedChain g, Tensor out, KernelBinder.Buffers buffers,
                                        Kernels k) {
        if (g.anchor().op() == OpType.BINARY) {
            // Relu's gradient, taken by a batch normalization gradient: dy and relu's output replace its value, or
            // where relu read this normalization, dy and the normalization's gamma and beta (relu's input
            // recomputed from x, one stream fewer).
            Node gate = g.anchor();
            Tensor[] in = inputsOf(reader, buffers);
            in[0] = buffers.valueOf(gate.input(1));
            Node norm = ChainLinks.normalizationUnderRelu(reader, gate);
            if (norm != null) {
                return KernelBinder.batchNormUnderRelu(reader.op(), reader.attrs(BatchNormAttrs.class), in,
                        buffers.valueOf(norm.input(2)), buffers.valueOf(norm.input(3)), out, k);
            }
            return KernelBinder.batchNorm(reader.op(), reader.attrs(BatchNormAttrs.class), in, null, 0f,
                    buffers.valueOf(gate.input(0)), out, k);
        }
        Node poolGrad = g.anchor();
        PoolGradAttrs attrs = poolGrad.attrs(PoolGradAttrs.class);
        PoolGeometry p = PoolGeometry.of(attrs.resultShape(), attrs.pool());
        Tensor cells = buffers.auxOf(ShapeInference.auxSource(poolGrad));
        Tensor dy = buffers.valueOf(poolGrad.input(1));
        if (reader.op() == OpType.REDUCE) {
            return () -> k.channelSumsOfPooledGradient(p, cells.data(), cells.offset(), dy.data(), dy.offset(),
                    out.data(), out.offset());
        }
        Tensor x = buffers.valueOf(reader.input(0));
        ConvGeometry cg = ConvGeometry.of(x.shape(), reader.shape(), reader.attrs(ConvGradAttrs.class).conv());
        return () -> k.conv2dBackwardFilterOfPooledGradient(cg, x.data(), x.offset(), p, cells.data(),
                cells.offset(), dy.data(), dy.offset(), out.data(), out.offset());
    }

    /** A batch normalization, its binary op with an operand of its shape and that op's activation, if any. */
    private static Instruction normalizedBinary(FusedChain g, KernelBinder.Buffers buffers, Tensor out, Kernels k) {
        Node bn = g.anchor();
        Node op = g.gate();
        boolean normalizedFirst = op.input(0) == bn;
        Tensor other = buffers.valueOf(normalizedFirst ? op.input(1) : op.input(0));
        Tensor[] in = inputsOf(bn, buffers);
        Tensor x = in[0];
        float eps = bn.attrs(BatchNormAttrs.class).epsilon();
        int channels = x.shape().dim(-1);
        int rows = x.size() / channels;
        BinaryAttrs b = op.attrs(BinaryAttrs.class);
        UnaryFn fn = g.activation() == null ? null : g.activation().attrs(UnaryAttrs.class).fn();
        float alpha = g.activation() == null ? 0f : g.activation().attrs(UnaryAttrs.class).alpha();
        return () -> k.batchNormBinary(eps, x.data(), x.offset(), in[1].data(), in[1].offset(), in[2].data(),
                in[2].offset(), in[3].data(), in[3].offset(), b.fn(), b.alpha(), other.data(), other.offset(),
                normalizedFirst, fn, alpha, out.data(), out.offset(), rows, channels);
    }

    private static Tensor[] inputsOf(Node n, KernelBinder.Buffers buffers) {
        Tensor[] in = new Tensor[n.inputs().size()];
        for (int i = 0; i < in.length; i++) {
            in[i] = buffers.valueOf(n.input(i));
        }
        return in;
    }

    private static Instruction conv(ConvAttrs attrs, Tensor x, Tensor w, Tensor bias, UnaryFn fn, float alpha,
                                    Tensor y, Kernels k) {
        ConvGeometry g = ConvGeometry.of(x.shape(), w.shape(), attrs);
        if (bias == null) {
            return () -> k.conv2dBiasActivation(g, x.data(), x.offset(), w.data(), w.offset(), null, 0, fn, alpha,
                    y.data(), y.offset());
        }
        return () -> k.conv2dBiasActivation(g, x.data(), x.offset(), w.data(), w.offset(), bias.data(),
                bias.offset(), fn, alpha, y.data(), y.offset());
    }

    /** The convolution's chain pooled in cache; {@code convOut} is the shape of the output it never writes. */
    private static Instruction convPool(ConvAttrs attrs, Tensor x, Tensor w, Tensor bias, UnaryFn fn, float alpha,
                                        PoolAttrs poolAttrs, Shape convOut, Tensor y, Tensor cells, Kernels k) {
        ConvGeometry g = ConvGeometry.of(x.shape(), w.shape(), attrs);
        PoolGeometry p = PoolGeometry.of(convOut, poolAttrs);
        float[] b = bias == null ? null : bias.data();
        int bOff = bias == null ? 0 : bias.offset();
        float[] c = cells == null ? null : cells.data();
        int cOff = cells == null ? 0 : cells.offset();
        return () -> k.conv2dBiasActivationMaxPool(g, x.data(), x.offset(), w.data(), w.offset(), b, bOff, fn, alpha,
                p, y.data(), y.offset(), c, cOff);
    }

    private static Instruction matmul(MatMulAttrs t, Tensor a, Tensor b, Tensor bias, UnaryFn fn, float alpha,
                                      Tensor c, Kernels k) {
        int m = c.shape().dim(0);
        int n = c.shape().dim(1);
        int inner = t.transA() ? a.shape().dim(0) : a.shape().dim(1);
        int lda = a.shape().dim(1);
        int ldb = b.shape().dim(1);
        if (bias == null) {
            return () -> k.gemmBiasActivation(t.transA(), t.transB(), m, n, inner, a.data(), a.offset(), lda,
                    b.data(), b.offset(), ldb, null, 0, fn, alpha, c.data(), c.offset(), n);
        }
        return () -> k.gemmBiasActivation(t.transA(), t.transB(), m, n, inner, a.data(), a.offset(), lda, b.data(),
                b.offset(), ldb, bias.data(), bias.offset(), fn, alpha, c.data(), c.offset(), n);
    }

    /**
     * A product with its bias and activation (each optional), then a binary op with an operand of its shape
     * ({@link Kernels#gemmBinary}), into {@code c}.
     */
    private static Instruction productBinary(FusedChain g, Tensor a, Tensor b, Tensor bias, Tensor c,
                                             KernelBinder.Buffers buffers, Kernels k) {
        Node op = g.gate();
        BinaryAttrs attrs = op.attrs(BinaryAttrs.class);
        boolean productFirst = op.input(0) == g.nodes().get(g.nodes().size() - 2);
        Tensor x = buffers.valueOf(productFirst ? op.input(1) : op.input(0));
        UnaryFn fn = g.activation() == null ? null : g.activation().attrs(UnaryAttrs.class).fn();
        float alpha = g.activation() == null ? 0f : g.activation().attrs(UnaryAttrs.class).alpha();
        float[] biasData = bias == null ? null : bias.data();
        int biasOff = bias == null ? 0 : bias.offset();
        MatMulAttrs t = g.anchor().attrs(MatMulAttrs.class);
        int m = g.anchor().shape().dim(0);
        int n = g.anchor().shape().dim(1);
        int inner = t.transA() ? a.shape().dim(0) : a.shape().dim(1);
        int lda = a.shape().dim(1);
        int ldb = b.shape().dim(1);
        return () -> k.gemmBinary(t.transA(), t.transB(), m, n, inner, a.data(), a.offset(), lda, b.data(),
                b.offset(), ldb, biasData, biasOff, fn, alpha, attrs.fn(), attrs.alpha(), x.data(), x.offset(),
                productFirst, c.data(), c.offset(), n);
    }

    private static Tensor bias(FusedChain g, KernelBinder.Buffers buffers) {
        return g.bias() == null ? null : buffers.valueOf(g.bias());
    }

    /** A product and its bias into {@code z}, which the chain keeps, and its activation into {@code y}. */
    private static Instruction keepingInput(FusedChain g, Tensor a, Tensor b, Tensor bias, Tensor z, Tensor y,
                                            Kernels k) {
        MatMulAttrs t = g.anchor().attrs(MatMulAttrs.class);
        UnaryAttrs act = g.activation().attrs(UnaryAttrs.class);
        float[] biasData = bias == null ? null : bias.data();
        int biasOff = bias == null ? 0 : bias.offset();
        int m = z.shape().dim(0);
        int n = z.shape().dim(1);
        int inner = t.transA() ? a.shape().dim(0) : a.shape().dim(1);
        int lda = a.shape().dim(1);
        int ldb = b.shape().dim(1);
        return () -> k.gemmBiasActivationKeepingInput(t.transA(), t.transB(), m, n, inner, a.data(), a.offset(),
                lda, b.data(), b.offset(), ldb, biasData, biasOff, act.fn(), act.alpha(), z.data(), z.offset(),
                y.data(), y.offset(), n);
    }

    /** Max pooling's gradient from its {@code cells}, gated by {@code fn(gate, dx)}; a null gate: see Kernels. */
    private static Instruction gatedPoolGradient(PoolGradAttrs attrs, Tensor cells, Tensor dy, BinaryFn fn,
                                                 float alpha, Tensor gate, Tensor dx, Kernels k) {
        PoolGeometry g = PoolGeometry.of(attrs.resultShape(), attrs.pool());
        if (gate == null) {
            return () -> k.maxPool2dBackwardGated(g, cells.data(), cells.offset(), dy.data(), dy.offset(), fn, alpha,
                    null, 0, dx.data(), dx.offset());
        }
        return () -> k.maxPool2dBackwardGated(g, cells.data(), cells.offset(), dy.data(), dy.offset(), fn, alpha,
                gate.data(), gate.offset(), dx.data(), dx.offset());
    }
}
