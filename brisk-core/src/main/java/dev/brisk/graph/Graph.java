package dev.brisk.graph;

import dev.brisk.backend.Kernels;
import dev.brisk.backend.EagerBuffers;
import dev.brisk.eager.EagerExecution;
import dev.brisk.eager.EagerRunner;
import dev.brisk.backend.KernelTimer;
import dev.brisk.ops.Attrs;
import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.BatchNormAttrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.DTypeInference;
import dev.brisk.ops.DropoutAttrs;
import dev.brisk.ops.ImageAugmentAttrs;
import dev.brisk.ops.LayerNormAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.NoAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.NoiseAttrs;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PermuteAttrs;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGradAttrs;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.ShapeAttrs;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.SoftmaxAttrs;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.UpdateAttrs;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A graph under construction, and the builder of every op. In eager mode each op runs the moment it is added
 * (its node carries the value); in symbolic mode the graph is only traced, to be compiled by
 * {@link dev.brisk.exec.Planner}. Layers, losses and optimisers are written once against this class and work in
 * both modes.
 */
public final class Graph {
    private final List<Node> nodes = new ArrayList<>();
    private final Map<Variable, Node> variableNodes = new IdentityHashMap<>();
    /** Keras' mask of a layer output ({@code _keras_mask}): set by Embedding(maskZero), read by later layers. */
    private final Map<Node, Node> masks = new IdentityHashMap<>();
    private final boolean eager;
    private final Kernels kernels;
    /** How an eager graph runs its ops (null for a symbolic one). */
    private final EagerExecution execution;
    private String scope = "";
    /** While deferring ({@link #deferAssigns}): the variables assigned, in order, and their new values. */
    private List<Variable> deferredVariables;
    private List<Node> deferredValues;

    private Graph(boolean eager, Kernels kernels, EagerBuffers buffers, KernelTimer timer) {
        this.eager = eager;
        this.kernels = kernels;
        this.execution = eager ? new EagerExecution(kernels, buffers, timer) : null;
    }

    /**
     * A graph whose ops run immediately, each into a new tensor.
     *
     * @param kernels the kernels that compute each op
     * @return a new eager graph
     */
    public static Graph eager(Kernels kernels) {
        return new Graph(true, kernels, null, null);
    }

    /**
     * A graph whose ops run immediately into storage recycled by {@code buffers} (for a loop that discards each
     * step's graph and reclaims its buffers before the next), each kernel call timed by {@code timer} when it is
     * not null (profiling).
     *
     * @param kernels the kernels that compute each op
     * @param buffers where outputs are allocated and recycled
     * @param timer times each kernel call, or null
     * @return a new eager graph
     */
    public static Graph eager(Kernels kernels, EagerBuffers buffers, KernelTimer timer) {
        return new Graph(true, kernels, buffers, timer);
    }

    /**
     * A graph that is only traced, for compilation.
     *
     * @param kernels the kernels the compiled plan will use
     * @return a new symbolic graph
     */
    public static Graph symbolic(Kernels kernels) {
        return new Graph(false, kernels, null, null);
    }

    /**
     * Whether ops run as they are added.
     *
     * @return true for an eager graph
     */
    public boolean isEager() {
        return eager;
    }

    /**
     * The kernels this graph's ops run on.
     *
     * @return the kernels
     */
    public Kernels kernels() {
        return kernels;
    }

    /**
     * All nodes, in creation order (a valid execution order).
     *
     * @return the nodes
     */
    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * Runs {@code body} with ops attributed to {@code name} (a layer name) in errors and profiles.
     *
     * @param <T> the body's result type
     * @param name the scope's name
     * @param body the code that adds the ops
     * @return what {@code body} returns
     */
    public <T> T inScope(String name, Supplier<T> body) {
        String saved = scope;
        scope = name;
        try {
            return body.get();
        } finally {
            scope = saved;
        }
    }

    /**
     * The scope new ops are attributed to.
     *
     * @return the current scope's name, or null outside any scope
     */
    public String scope() {
        return scope;
    }

    /**
     * Runs {@code body}, the ops of one layer or of a backward pass. In an eager graph, the chains built inside it
     * that a compiled plan runs as one fused kernel call (a product or convolution with its bias add and
     * activation, a convolution's chain with the max pooling of its output; max pooling's gradient with the
     * activation gradient after it) run as one call here too, with the same bits, and the nodes before a chain's
     * last get no value of their own. Such a node read later (by an op, or returned by {@code body}) is computed
     * then from its inputs, which is exact as long as no variable has changed since. A relu gradient under a pooling
     * gradient is read by a bias gradient or a shallow convolution's filter gradient straight from the pool's cells,
     * as in a plan, and is computed only if something else reads it. Blocks nest: a chain may grow across the end
     * of an inner block (a layer's) into the next ops of the outer one (the next layer's pooling), so a node returned
     * by an inner block has its value at the latest when the outermost block ends, or when {@link #settle} is
     * called for it. A symbolic graph, or fusion turned off ({@code -Dbrisk.fusion=false}), just runs {@code body}.
     *
     * @param <T> the body's result type
     * @param body the code that adds the ops
     * @return what {@code body} returns
     */
    public <T> T fusing(Supplier<T> body) {
        return execution == null || !EagerRunner.fuses() ? body.get() : execution.fusing(body);
    }

    /**
     * Gives {@code n} its value now: runs the chain held back in a {@link #fusing} block if {@code n} is one of its
     * nodes, or computes {@code n} if a fused call left it without a value. For nodes whose value is read by more
     * than the next op (a layer output with several readers), so that no chain folds it away.
     *
     * @param n the node that needs its value
     */
    public void settle(Node n) {
        if (execution != null) {
            execution.settle(n);
        }
    }

    // ---- leaves ----

    /**
     * A placeholder fed at every step.
     *
     * @param name the input's name
     * @param shape its shape, batch axis included
     * @return the input node
     */
    public Node input(String name, Shape shape) {
        if (eager) {
            throw new IllegalStateException("an eager graph needs a value for input '" + name + "'");
        }
        return add(new Node(nodes.size(), OpType.INPUT, NoAttrs.INSTANCE, List.of(), shape, name, null));
    }

    /**
     * An input with its value: eager graphs use the value now, symbolic ones only its shape.
     *
     * @param name the input's name
     * @param value its value
     * @return the input node
     */
    public Node input(String name, Tensor value) {
        Node n = new Node(nodes.size(), OpType.INPUT, NoAttrs.INSTANCE, List.of(), value.shape(), name, null,
                value.dtype());
        if (eager) {
            n.setValue(value);
        }
        return add(n);
    }

    /**
     * The node reading {@code v} (one per variable per graph).
     *
     * @param v the variable
     * @return the variable's node
     */
    public Node variable(Variable v) {
        Node n = variableNodes.get(v);
        if (n == null) {
            n = new Node(nodes.size(), OpType.VARIABLE, NoAttrs.INSTANCE, List.of(), v.shape(), v.name(), v);
            add(n);
            variableNodes.put(v, n);
        }
        return n;
    }

    /**
     * A constant node holding {@code value}, of the value's element type (INT32 for constant ids such as the
     * positions an {@code Embedding} over positions reads).
     *
     * @param value the value; not copied
     * @return the constant node
     */
    public Node constant(Tensor value) {
        Node n = new Node(nodes.size(), OpType.CONSTANT, NoAttrs.INSTANCE, List.of(), value.shape(), scope, null,
                value.dtype());
        n.setValue(value);
        return add(n);
    }

    /**
     * A scalar constant.
     *
     * @param value the value
     * @return the constant node
     */
    public Node constant(float value) {
        return constant(Tensor.scalar(value));
    }

    // ---- elementwise ----

    /**
     * An elementwise function of one input.
     *
     * @param fn the function
     * @param alpha its parameter, for the functions that take one
     * @param x the input
     * @return the output node, shaped like {@code x}
     */
    public Node unary(UnaryFn fn, float alpha, Node x) {
        return op(OpType.UNARY, new UnaryAttrs(fn, alpha), x);
    }

    /**
     * An elementwise function of one input that takes no parameter.
     *
     * @param fn the function
     * @param x the input
     * @return the output node, shaped like {@code x}
     */
    public Node unary(UnaryFn fn, Node x) {
        return unary(fn, 0f, x);
    }

    /**
     * An elementwise function of two inputs, broadcast NumPy-style.
     *
     * @param fn the function
     * @param alpha its parameter, for the functions that take one
     * @param a the first input
     * @param b the second input
     * @return the output node, of the broadcast shape
     */
    public Node binary(BinaryFn fn, float alpha, Node a, Node b) {
        return op(OpType.BINARY, new BinaryAttrs(fn, alpha), a, b);
    }

    /**
     * An elementwise function of two inputs that takes no parameter, broadcast NumPy-style.
     *
     * @param fn the function
     * @param a the first input
     * @param b the second input
     * @return the output node, of the broadcast shape
     */
    public Node binary(BinaryFn fn, Node a, Node b) {
        return binary(fn, 0f, a, b);
    }

    /**
     * Softplus {@code log(1 + exp(x))}, composed as {@code relu(x) + log(1 + exp(-|x|))} so that it does not
     * overflow for large {@code |x|} (used by the softplus and mish activations and the log-cosh loss).
     *
     * @param x the input
     * @return the softplus of {@code x}, shaped like it
     */
    public Node softplus(Node x) {
        Node tail = log(addScalar(unary(UnaryFn.EXP, neg(unary(UnaryFn.ABS, x))), 1f));
        return add(unary(UnaryFn.RELU, x), tail);
    }

    /**
     * {@code a + b}, broadcast.
     *
     * @param a the first input
     * @param b the second input
     * @return the sum
     */
    public Node add(Node a, Node b) {
        return binary(BinaryFn.ADD, a, b);
    }

    /**
     * {@code a - b}, broadcast.
     *
     * @param a the first input
     * @param b the second input
     * @return the difference
     */
    public Node sub(Node a, Node b) {
        return binary(BinaryFn.SUB, a, b);
    }

    /**
     * {@code a * b} elementwise, broadcast.
     *
     * @param a the first input
     * @param b the second input
     * @return the product
     */
    public Node mul(Node a, Node b) {
        return binary(BinaryFn.MUL, a, b);
    }

    /**
     * {@code a / b} elementwise, broadcast.
     *
     * @param a the first input
     * @param b the second input
     * @return the quotient
     */
    public Node div(Node a, Node b) {
        return binary(BinaryFn.DIV, a, b);
    }

    /**
     * {@code -x}.
     *
     * @param x the input
     * @return the negation
     */
    public Node neg(Node x) {
        return unary(UnaryFn.NEG, x);
    }

    /**
     * {@code x * factor}.
     *
     * @param x the input
     * @param factor the constant factor
     * @return the scaled node
     */
    public Node scale(Node x, float factor) {
        return unary(UnaryFn.SCALE, factor, x);
    }

    /**
     * {@code x + c}.
     *
     * @param x the input
     * @param c the constant
     * @return the shifted node
     */
    public Node addScalar(Node x, float c) {
        return unary(UnaryFn.ADD_SCALAR, c, x);
    }

    /**
     * {@code x * x} elementwise.
     *
     * @param x the input
     * @return the square
     */
    public Node square(Node x) {
        return unary(UnaryFn.SQUARE, x);
    }

    /**
     * The natural logarithm, elementwise.
     *
     * @param x the input
     * @return the logarithm
     */
    public Node log(Node x) {
        return unary(UnaryFn.LOG, x);
    }

    // ---- linear algebra and shapes ----

    /**
     * The matrix product of two rank-2 nodes, either operand optionally transposed.
     *
     * @param a the left operand
     * @param b the right operand
     * @param transA whether {@code a} is transposed
     * @param transB whether {@code b} is transposed
     * @return the product
     */
    public Node matmul(Node a, Node b, boolean transA, boolean transB) {
        return op(OpType.MATMUL, new MatMulAttrs(transA, transB), a, b);
    }

    /**
     * The matrix product {@code a x b} of two rank-2 nodes.
     *
     * @param a the left operand, {@code [m, k]}
     * @param b the right operand, {@code [k, n]}
     * @return the product, {@code [m, n]}
     */
    public Node matmul(Node a, Node b) {
        return matmul(a, b, false, false);
    }

    /**
     * The same elements in another shape of equal size; {@code x} itself when the shape is unchanged.
     *
     * @param x the input
     * @param shape the new shape
     * @return the reshaped node
     */
    public Node reshape(Node x, Shape shape) {
        if (x.shape().equals(shape)) {
            return x;
        }
        return op(OpType.RESHAPE, new ShapeAttrs(shape), x);
    }

    /**
     * Joins {@code parts} along {@code axis}.
     *
     * @param axis the axis
     * @param parts the nodes to join, equal in every other axis
     * @return the joined node
     */
    public Node concat(int axis, List<Node> parts) {
        return op(OpType.CONCAT, new AxisAttrs(axis, 0, 0), parts.toArray(new Node[0]));
    }

    /**
     * The range {@code [start, start + length)} of {@code x} along {@code axis}.
     *
     * @param x the input
     * @param axis the axis
     * @param start the first index taken
     * @param length the number of indexes taken
     * @return the slice
     */
    public Node slice(Node x, int axis, int start, int length) {
        return op(OpType.SLICE, new AxisAttrs(axis, start, length), x);
    }

    /**
     * Swaps the last two axes: a matrix transpose, batched for a rank above 2.
     *
     * @param x the input
     * @return the transposed node
     */
    public Node transpose(Node x) {
        return op(OpType.TRANSPOSE, NoAttrs.INSTANCE, x);
    }

    /**
     * {@code x} broadcast to {@code shape}; {@code x} itself when the shape is unchanged.
     *
     * @param x the input
     * @param shape a shape {@code x} broadcasts to
     * @return the broadcast node
     */
    public Node broadcastTo(Node x, Shape shape) {
        if (x.shape().equals(shape)) {
            return x;
        }
        return op(OpType.BROADCAST_TO, new ShapeAttrs(shape), x);
    }

    // ---- reductions ----

    /**
     * A reduction of {@code x} over {@code axes}.
     *
     * @param fn the reduction
     * @param x the input
     * @param keepDims true to keep the reduced axes as size 1
     * @param axes the axes; negative axes count from the end
     * @return the reduced node
     */
    public Node reduce(ReduceFn fn, Node x, boolean keepDims, int... axes) {
        return op(OpType.REDUCE, new ReduceAttrs(fn, axes.clone(), keepDims), x);
    }

    /**
     * The sum of {@code x} over {@code axes}.
     *
     * @param x the input
     * @param keepDims true to keep the reduced axes as size 1
     * @param axes the axes; negative axes count from the end
     * @return the sum
     */
    public Node sum(Node x, boolean keepDims, int... axes) {
        return reduce(ReduceFn.SUM, x, keepDims, axes);
    }

    /**
     * Sum of all elements, as a scalar.
     *
     * @param x the input
     * @return the scalar sum
     */
    public Node sumAll(Node x) {
        return x.shape().rank() == 0 ? x : sum(x, false, allAxes(x.shape().rank()));
    }

    /**
     * The mean of {@code x} over {@code axes}, as a sum scaled by one over the element count.
     *
     * @param x the input
     * @param keepDims true to keep the reduced axes as size 1
     * @param axes the axes; negative axes count from the end
     * @return the mean
     */
    public Node mean(Node x, boolean keepDims, int... axes) {
        boolean[] mask = ShapeInference.reduceMask(x.shape().rank(), axes);
        int count = 1;
        for (int i = 0; i < mask.length; i++) {
            if (mask[i]) {
                count *= x.shape().dim(i);
            }
        }
        return scale(sum(x, keepDims, axes), 1f / count);
    }

    /**
     * The batch statistics of {@code x} per channel (its last axis): a {@code [2, channels]} node holding the mean
     * over all other axes, then the biased variance about it.
     *
     * @param x the input, channels last
     * @return a [2, channels] node
     */
    public Node batchNormStatistics(Node x) {
        return op(OpType.BATCH_NORM_STATS, NoAttrs.INSTANCE, x);
    }

    /**
     * {@code (x - mean) / sqrt(variance + epsilon) * gamma + beta} per channel (the last axis), with the mean and
     * variance the two rows of {@code statistics}. In {@code training} mode {@code statistics} must be
     * {@link #batchNormStatistics} of {@code x}, and the gradient with respect to {@code x} includes their part; the
     * statistics get no gradient in either mode.
     *
     * @param x the input, channels last
     * @param statistics the [2, channels] mean and variance
     * @param gamma the per-channel scale
     * @param beta the per-channel shift
     * @param epsilon added to the variance
     * @param training whether the statistics are the batch's own
     * @return the normalized node, shaped like x
     */
    public Node batchNorm(Node x, Node statistics, Node gamma, Node beta, float epsilon, boolean training) {
        return op(OpType.BATCH_NORM, new BatchNormAttrs(epsilon, training), x, statistics, gamma, beta);
    }

    /**
     * Mean of all elements, as a scalar.
     *
     * @param x the input
     * @return the scalar mean
     */
    public Node meanAll(Node x) {
        return x.shape().rank() == 0 ? x : mean(x, false, allAxes(x.shape().rank()));
    }

    static int[] allAxes(int rank) {
        int[] a = new int[rank];
        Arrays.setAll(a, i -> i);
        return a;
    }

    // ---- softmax and indexing ----

    /**
     * Softmax over the last axis.
     *
     * @param x the input
     * @return the probabilities, shaped like {@code x}
     */
    public Node softmax(Node x) {
        return op(OpType.SOFTMAX, new SoftmaxAttrs(false), x);
    }

    /**
     * Log-softmax over the last axis, computed stably in one kernel.
     *
     * @param x the input
     * @return the log-probabilities, shaped like {@code x}
     */
    public Node logSoftmax(Node x) {
        return op(OpType.SOFTMAX, new SoftmaxAttrs(true), x);
    }

    /**
     * {@code out[r] = x[r, index[r]]}; {@code index} holds class indexes as floats.
     *
     * @param x the input, {@code [rows, cols]}
     * @param index the class index of each row, {@code [rows]}
     * @return the gathered values, {@code [rows]}
     */
    public Node gatherRows(Node x, Node index) {
        return op(OpType.GATHER_ROWS, NoAttrs.INSTANCE, x, index);
    }

    /**
     * Per-row softmax cross-entropy of {@code logits} ({@code [rows, cols]}) against class indexes ({@code [rows]},
     * as floats): {@code logsumexp(logits[r]) - logits[r, index[r]]}, the value of
     * {@code -gatherRows(logSoftmax(logits), index)} in one kernel, whose gradient reads the probabilities it kept.
     *
     * @param logits the scores, {@code [rows, cols]}
     * @param index the class index of each row, {@code [rows]}
     * @return the loss of each row, {@code [rows]}
     */
    public Node sparseSoftmaxCrossEntropy(Node logits, Node index) {
        return op(OpType.SPARSE_SOFTMAX_XENT, NoAttrs.INSTANCE, logits, index);
    }

    // ---- convolution and pooling ----

    /**
     * A 2-D convolution of NHWC {@code x} by {@code kernel} ({@code [kh, kw, in, out]}), with no bias.
     *
     * @param x the input, NHWC
     * @param kernel the kernel
     * @param strideH vertical stride
     * @param strideW horizontal stride
     * @param same true for "same" padding, false for "valid"
     * @return the output, NHWC
     */
    public Node conv2d(Node x, Node kernel, int strideH, int strideW, boolean same) {
        return op(OpType.CONV2D, new ConvAttrs(strideH, strideW, same), x, kernel);
    }

    /**
     * Transposed 2-D convolution (Keras' {@code Conv2DTranspose}): the gradient of a convolution with respect to its
     * input, applied to {@code x}. The convolution of an {@code outputShape} image by {@code kernel} (Keras' transposed
     * layout {@code (kh, kw, outChannels, inChannels)} is a convolution kernel from {@code outChannels} to
     * {@code inChannels}) with these strides and padding must give {@code x}'s shape.
     *
     * @param x the input, NHWC {@code [batch, h, w, inChannels]}
     * @param kernel the kernel {@code [kh, kw, outChannels, inChannels]}
     * @param strideH vertical stride
     * @param strideW horizontal stride
     * @param same true for "same" padding, false for "valid"
     * @param outputShape the output shape, NHWC
     * @return the output, NHWC
     * @throws IllegalArgumentException if the shapes do not correspond
     */
    public Node conv2dTranspose(Node x, Node kernel, int strideH, int strideW, boolean same, Shape outputShape) {
        ConvAttrs a = new ConvAttrs(strideH, strideW, same);
        Shape k = kernel.shape();
        boolean fits = outputShape.rank() == 4 && k.rank() == 4 && k.dim(2) == outputShape.dim(3);
        dev.brisk.ops.ConvGeometry geo = fits ? dev.brisk.ops.ConvGeometry.of(outputShape, k, a) : null;
        Shape back = fits ? Shape.of(outputShape.dim(0), geo.outH(), geo.outW(), k.dim(3)) : null;
        if (!x.shape().equals(back)) {
            throw new IllegalArgumentException("conv2dTranspose: output " + outputShape + " convolved by kernel "
                    + kernel.shape() + " gives " + back + ", not the input's shape " + x.shape());
        }
        return convGradInput(x, kernel, a, outputShape);
    }

    /**
     * Max pooling of NHWC {@code x}.
     *
     * @param x the input, NHWC
     * @param attrs window, strides and padding
     * @return the output, NHWC
     */
    public Node maxPool(Node x, PoolAttrs attrs) {
        return op(OpType.MAX_POOL, attrs, x);
    }

    /**
     * Average pooling of NHWC {@code x}; with "same" padding, padded cells are not counted.
     *
     * @param x the input, NHWC
     * @param attrs window, strides and padding
     * @return the output, NHWC
     */
    public Node avgPool(Node x, PoolAttrs attrs) {
        return op(OpType.AVG_POOL, attrs, x);
    }

    /**
     * Inverted dropout of {@code x}; the mask is drawn from the step {@code seed} mixed with {@code salt}.
     *
     * @param x the input
     * @param rate the fraction zeroed; the rest is scaled by {@code 1 / (1 - rate)}
     * @param seed the step's seed node
     * @param salt distinct per dropout layer
     * @return the output, shaped like {@code x}
     */
    public Node dropout(Node x, float rate, Node seed, long salt) {
        return op(OpType.DROPOUT, new DropoutAttrs(rate, salt), x, seed);
    }

    /**
     * Normal noise of mean 0 shaped {@code shape}, drawn from the step {@code seed} mixed with {@code salt}.
     *
     * @param shape the output shape
     * @param stddev the standard deviation
     * @param seed the step's seed node
     * @param salt distinct per layer
     * @return the noise
     */
    public Node randomNormal(Shape shape, float stddev, Node seed, long salt) {
        return op(OpType.RANDOM_NORMAL, new NoiseAttrs(shape, stddev, salt), seed);
    }

    /**
     * Images {@code x (n, h, w, c)} each transformed by its own random draw from the step {@code seed} mixed with
     * the attributes' salt (Keras' random augmentation layers in training).
     *
     * @param attrs the augmentation and the salt
     * @param x the images
     * @param seed the step's seed node
     * @return the transformed images, shaped like {@code x}
     */
    public Node imageAugment(ImageAugmentAttrs attrs, Node x, Node seed) {
        return op(OpType.IMAGE_AUGMENT, attrs, x, seed);
    }

    /**
     * The gradient of {@link #imageAugment} with respect to its images: replays the same draws.
     *
     * @param attrs the forward node's attributes
     * @param x the forward node's images
     * @param dy the gradient with respect to its output
     * @param seed the step's seed node
     * @return the gradient with respect to {@code x}
     */
    public Node imageAugmentGrad(ImageAugmentAttrs attrs, Node x, Node dy, Node seed) {
        return op(OpType.IMAGE_AUGMENT_GRAD, attrs, x, dy, seed);
    }

    /**
     * A recurrent layer over the whole sequence {@code x [batch, steps, inputs]} (one RECURRENT_SEQUENCE node).
     *
     * @param attrs the cell, units, output and direction
     * @param x the input
     * @param kernel the kernel {@code [inputs, gates units]}
     * @param recurrentKernel the recurrent kernel {@code [units, gates units]}
     * @param bias the bias ({@code [gates units]}, or {@code [2, gates units]} for GRU)
     * @param mask the mask {@code [batch, steps]} (nonzero for real steps), or null; {@code attrs.masked()} must
     *     say whether there is one
     * @param initialState the initial state {@code [batch, states units]}, or null for zeros;
     *     {@code attrs.initialState()} must say whether there is one
     * @return every step's hidden state {@code [batch, steps, units]} or the last {@code [batch, units]}; with
     *     {@code returnState}, {@code [batch, width]} rows of that output followed by the final states
     */
    public Node recurrentSequence(RecurrentAttrs attrs, Node x, Node kernel, Node recurrentKernel, Node bias,
                                  Node mask, Node initialState) {
        if ((mask != null) != attrs.masked() || (initialState != null) != attrs.initialState()) {
            throw new IllegalArgumentException("RECURRENT_SEQUENCE: masked=" + attrs.masked() + " and initialState="
                    + attrs.initialState() + " do not match the inputs given");
        }
        List<Node> in = new ArrayList<>(List.of(x, kernel, recurrentKernel, bias));
        if (mask != null) {
            in.add(mask);
        }
        if (initialState != null) {
            in.add(initialState);
        }
        return op(OpType.RECURRENT_SEQUENCE, attrs, in.toArray(new Node[0]));
    }

    // ---- side effects ----

    /**
     * Writes {@code value} into variable {@code v} when the step runs.
     *
     * @param v the variable
     * @param value the new value, of the variable's shape
     * @return the side-effect node
     */
    public Node assign(Variable v, Node value) {
        if (deferredVariables != null) {
            deferredVariables.add(v);
            deferredValues.add(value);
            return value;
        }
        return op(OpType.ASSIGN, NoAttrs.INSTANCE, variable(v), value);
    }

    /**
     * From now on {@link #assign} writes nothing: it records the variable and its new value, for the caller to
     * write ({@link #deferredAssigns}). Data-parallel replicas that share their variables compute each replica's
     * new state (batch-norm moving statistics) this way, and the caller averages them after every replica's step.
     */
    public void deferAssigns() {
        deferredVariables = new ArrayList<>();
        deferredValues = new ArrayList<>();
    }

    /**
     * The assignments recorded since {@link #deferAssigns}, in the order they were made.
     *
     * @return each assigned variable and the node of its new value; empty when not deferring
     */
    public List<Map.Entry<Variable, Node>> deferredAssigns() {
        List<Map.Entry<Variable, Node>> out = new ArrayList<>();
        if (deferredVariables != null) {
            for (int i = 0; i < deferredVariables.size(); i++) {
                out.add(Map.entry(deferredVariables.get(i), deferredValues.get(i)));
            }
        }
        return out;
    }

    /**
     * A fused optimiser update of {@code v}; see the {@link UpdateAttrs} records for slots and hyper-parameters.
     *
     * @param attrs the optimiser's update attributes
     * @param v the variable to update
     * @param grad its gradient
     * @param slots its state variables
     * @param hyper the hyper-parameter vector node
     * @return the side-effect node
     */
    public Node update(UpdateAttrs attrs, Variable v, Node grad, List<Variable> slots, Node hyper) {
        List<Node> in = new ArrayList<>();
        in.add(variable(v));
        in.add(grad);
        for (Variable s : slots) {
            in.add(variable(s));
        }
        in.add(hyper);
        return op(OpType.UPDATE, attrs, in.toArray(new Node[0]));
    }

    // ---- gradient ops (used by Autodiff) ----

    Node softmaxGrad(boolean log, Node y, Node dy) {
        return op(OpType.SOFTMAX_GRAD, new SoftmaxAttrs(log), y, dy);
    }

    Node scatterRows(Node dy, Node index, Shape shape) {
        return op(OpType.SCATTER_ROWS, new ShapeAttrs(shape), dy, index);
    }

    Node convGradInput(Node dy, Node kernel, ConvAttrs conv, Shape inputShape) {
        return op(OpType.CONV2D_GRAD_INPUT, new ConvGradAttrs(conv, inputShape), dy, kernel);
    }

    Node convGradFilter(Node x, Node dy, ConvAttrs conv, Shape kernelShape) {
        return op(OpType.CONV2D_GRAD_FILTER, new ConvGradAttrs(conv, kernelShape), x, dy);
    }

    Node maxPoolGrad(Node maxPool, Node dy) {
        return op(OpType.MAX_POOL_GRAD, new PoolGradAttrs(maxPool.attrs(PoolAttrs.class), maxPool.input(0).shape()),
                maxPool, dy);
    }

    Node avgPoolGrad(Node dy, PoolAttrs pool, Shape inputShape) {
        return op(OpType.AVG_POOL_GRAD, new PoolGradAttrs(pool, inputShape), dy);
    }

    Node sparseSoftmaxCrossEntropyGrad(Node dy, Node index, Node xentNode) {
        return op(OpType.SPARSE_SOFTMAX_XENT_GRAD, NoAttrs.INSTANCE, dy, index, xentNode);
    }

    /** The gradients of a BATCH_NORM's beta and gamma, as the two rows of a {@code [2, channels]} node. */
    Node batchNormParamGrad(Node dy, Node batchNorm) {
        return op(OpType.BATCH_NORM_PARAM_GRAD, batchNorm.attrs(BatchNormAttrs.class), dy, batchNorm.input(0),
                batchNorm.input(1));
    }

    /** The gradient of a BATCH_NORM's input, given its {@link #batchNormParamGrad} for the same {@code dy}. */
    Node batchNormGrad(Node dy, Node batchNorm, Node paramGrad) {
        return op(OpType.BATCH_NORM_GRAD, batchNorm.attrs(BatchNormAttrs.class), dy, batchNorm.input(0),
                batchNorm.input(1), batchNorm.input(2), paramGrad);
    }

    Node dropoutGrad(Node dy, Node dropoutNode) {
        return op(OpType.DROPOUT_GRAD, NoAttrs.INSTANCE, dy, dropoutNode);
    }

    /** The packed gradients of a RECURRENT_SEQUENCE ({@link OpType#RECURRENT_SEQUENCE_GRAD}). */
    Node recurrentSequenceGrad(Node dy, Node forward, boolean inputGradient) {
        RecurrentAttrs a = forward.attrs(RecurrentAttrs.class).withInputGradient(inputGradient);
        if (a.masked()) {
            return op(OpType.RECURRENT_SEQUENCE_GRAD, a, dy, forward, forward.input(1), forward.input(2),
                    forward.input(a.maskInput()));
        }
        return op(OpType.RECURRENT_SEQUENCE_GRAD, a, dy, forward, forward.input(1), forward.input(2));
    }

    // ---- plumbing ----

    private Node op(OpType type, Attrs attrs, Node... inputs) {
        List<Node> in = List.of(inputs);
        for (Node n : inputs) {
            if (n.id() >= nodes.size() || nodes.get(n.id()) != n) {
                throw new IllegalArgumentException("node " + n + " belongs to another graph");
            }
        }
        Shape shape;
        try {
            shape = ShapeInference.infer(type, attrs, in);
        } catch (IllegalArgumentException e) {
            throw new ShapeException(scope.isEmpty() ? e.getMessage() : "layer '" + scope + "': " + e.getMessage(),
                    e);
        }
        DType dtype;
        try {
            dtype = DTypeInference.infer(type, in);
        } catch (IllegalArgumentException e) {
            throw new ShapeException(scope.isEmpty() ? e.getMessage() : "layer '" + scope + "': " + e.getMessage(),
                    e);
        }
        Variable target = type == OpType.ASSIGN || type == OpType.UPDATE ? inputs[0].variable() : null;
        return add(new Node(nodes.size(), type, attrs, in, shape, scope, target, dtype));
    }

    private Node add(Node n) {
        nodes.add(n);
        if (execution != null) {
            execution.run(n);
        }
        return n;
    }

    // ---- sequences and attention ----

    /**
     * The batched matrix product {@code [..., m, k] x [..., k, n] -> [..., m, n]}, either operand's last two axes
     * optionally transposed. The operands have equal batch axes, or one of them is a plain matrix used for every
     * batch entry of the other.
     *
     * @param a the left operand
     * @param b the right operand
     * @param transA whether the last two axes of {@code a} are transposed
     * @param transB whether the last two axes of {@code b} are transposed
     * @return the product
     */
    public Node batchMatmul(Node a, Node b, boolean transA, boolean transB) {
        return op(OpType.BATCH_MATMUL, new MatMulAttrs(transA, transB), a, b);
    }

    /**
     * Scaled-dot-product attention in one kernel: per batch entry and head, {@code softmax(q_h k_h^T + mask) v_h},
     * reading the heads where the projections wrote them (no permutes) and keeping neither the scores nor the
     * probabilities (the gradient recomputes them from each row's log-sum-exp). Scale {@code q} first.
     *
     * @param q the queries {@code [B, T, H, D]}
     * @param k the keys {@code [B, S, H, D]}
     * @param v the values {@code [B, S, H, Dv]}
     * @param mask an additive mask {@code [B, T, S]} or {@code [B, 1, S]} (one row for every query), or null
     * @param causal whether query row {@code i} attends only to keys {@code 0 .. i}
     * @return the attended values {@code [B, T, H, Dv]}
     */
    public Node attention(Node q, Node k, Node v, Node mask, boolean causal) {
        AttentionAttrs attrs = new AttentionAttrs(causal);
        return mask == null ? op(OpType.ATTENTION, attrs, q, k, v) : op(OpType.ATTENTION, attrs, q, k, v, mask);
    }

    /** The packed gradients of an ATTENTION's q, k and v ({@link OpType#ATTENTION_GRAD}). */
    Node attentionGrad(Node dy, Node attention) {
        List<Node> in = new ArrayList<>(List.of(dy, attention));
        in.addAll(attention.inputs());
        return op(OpType.ATTENTION_GRAD, attention.attrs(), in.toArray(new Node[0]));
    }

    /**
     * Reorders the axes of {@code x}: output axis {@code i} is input axis {@code perm[i]}; {@code x} itself for the
     * identity.
     *
     * @param x the input
     * @param perm a permutation of {@code 0 .. rank-1}
     * @return the permuted node
     */
    public Node permute(Node x, int... perm) {
        boolean identity = perm.length == x.shape().rank();
        for (int i = 0; identity && i < perm.length; i++) {
            identity = perm[i] == i;
        }
        if (identity) {
            return x;
        }
        return op(OpType.PERMUTE, new PermuteAttrs(perm.clone()), x);
    }

    /**
     * Softmax along {@code axis}.
     *
     * @param x the input
     * @param axis the axis the probabilities sum to one along; negative axes count from the end
     * @return the probabilities, shaped like {@code x}
     * @throws IllegalArgumentException when the axis is out of range
     */
    public Node softmax(Node x, int axis) {
        return op(OpType.SOFTMAX, new SoftmaxAttrs(false, checkedAxis(x, axis)), x);
    }

    /**
     * Log-softmax along {@code axis}, computed stably in one kernel.
     *
     * @param x the input
     * @param axis the axis; negative axes count from the end
     * @return the log-probabilities, shaped like {@code x}
     * @throws IllegalArgumentException when the axis is out of range
     */
    public Node logSoftmax(Node x, int axis) {
        return op(OpType.SOFTMAX, new SoftmaxAttrs(true, checkedAxis(x, axis)), x);
    }

    private int checkedAxis(Node x, int axis) {
        int rank = x.shape().rank();
        if (axis < -rank || axis >= rank) {
            String msg = "axis " + axis + " is out of range for " + x.shape();
            throw new ShapeException(scope.isEmpty() ? msg : "layer '" + scope + "': " + msg,
                    new IllegalArgumentException(msg));
        }
        return axis;
    }

    /**
     * Layer normalization over the last axis: each row {@code (x - mean) / sqrt(variance + epsilon) * gamma + beta}
     * with its own mean and biased variance, in one kernel that sums in double.
     *
     * @param x the input
     * @param gamma the scale, one per element of the last axis
     * @param beta the offset, one per element of the last axis
     * @param epsilon added to the variance
     * @return the normalized node, shaped like {@code x}
     */
    public Node layerNorm(Node x, Node gamma, Node beta, float epsilon) {
        return op(OpType.LAYER_NORM, new LayerNormAttrs(epsilon), x, gamma, beta);
    }

    Node softmaxGrad(SoftmaxAttrs attrs, Node y, Node dy) {
        return op(OpType.SOFTMAX_GRAD, attrs, y, dy);
    }

    /** The gradients of a LAYER_NORM's beta and gamma, as the two rows of a {@code [2, channels]} node. */
    Node layerNormParamGrad(Node dy, Node layerNorm) {
        return op(OpType.LAYER_NORM_PARAM_GRAD, layerNorm.attrs(LayerNormAttrs.class), dy, layerNorm.input(0));
    }

    /** The gradient of a LAYER_NORM's input. */
    Node layerNormGrad(Node dy, Node layerNorm) {
        return op(OpType.LAYER_NORM_GRAD, layerNorm.attrs(LayerNormAttrs.class), dy, layerNorm.input(0),
                layerNorm.input(1));
    }

    // ---- integer ids (embedding lookup) ----

    /**
     * A placeholder of element type {@code dtype} fed at every step (token ids are {@link DType#INT32}).
     *
     * @param name the input's name
     * @param shape its shape, batch axis included
     * @param dtype its element type
     * @return the input node
     * @throws IllegalStateException on an eager graph, whose inputs need values
     */
    public Node input(String name, Shape shape, DType dtype) {
        if (eager) {
            throw new IllegalStateException("an eager graph needs a value for input '" + name + "'");
        }
        return add(new Node(nodes.size(), OpType.INPUT, NoAttrs.INSTANCE, List.of(), shape, name, null, dtype));
    }

    /**
     * Rows of {@code table} picked by token ids: {@code out[.., :] = table[ids[..], :]}, Keras' embedding lookup.
     * Its gradient adds each output row's gradient into the table row of its id.
     *
     * @param table the embedding table, {@code [vocab, dim]}
     * @param ids INT32 ids of any shape {@code [..]}, each in {@code [0, vocab)} (else the kernel throws)
     * @return the looked-up rows, {@code [.., dim]}
     * @throws ShapeException if the table is not a matrix or the ids are not INT32
     */
    public Node embeddingLookup(Node table, Node ids) {
        return op(OpType.EMBEDDING_LOOKUP, NoAttrs.INSTANCE, table, ids);
    }

    /**
     * 1 where {@code ids} is not zero and 0 where it is, as floats: the padding mask of {@code Embedding(maskZero)}.
     *
     * @param ids INT32 ids of any shape
     * @return the mask, shaped like {@code ids}
     * @throws ShapeException if the ids are not INT32
     */
    public Node nonzeroMask(Node ids) {
        return op(OpType.NONZERO_MASK, NoAttrs.INSTANCE, ids);
    }

    Node embeddingGrad(Node dy, Node ids, Shape tableShape) {
        return op(OpType.EMBEDDING_GRAD, new ShapeAttrs(tableShape), dy, ids);
    }

    /**
     * Attaches a padding mask to {@code x} (Keras' {@code _keras_mask}): 1 for real steps, 0 for padded ones, shaped
     * like {@code x} without its last axis. A layer that supports masking reads it with {@link #maskOf}.
     *
     * @param x the layer output the mask belongs to
     * @param mask the float mask, {@code [batch, steps]}
     */
    public void setMask(Node x, Node mask) {
        masks.put(x, mask);
    }

    /**
     * The padding mask attached to {@code x} by the layer that made it, or null.
     *
     * @param x a layer output
     * @return its mask, or null when it has none
     */
    public Node maskOf(Node x) {
        return masks.get(x);
    }
}
