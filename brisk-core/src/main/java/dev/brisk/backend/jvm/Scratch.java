package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;

/**
 * Per-thread work arrays for the kernels. Each array grows to the largest size a thread has needed and is then
 * reused, so steady-state calls allocate nothing. A kernel takes only the current thread's instance, and a method
 * that hands one of its arrays to other threads (the partial sums of a reduction) keeps them apart by slot.
 */
final class Scratch {
    private static final ThreadLocal<Scratch> LOCAL = ThreadLocal.withInitial(Scratch::new);
    /** Transposed convolutions kept per thread: more than the distinct input-gradient shapes of a usual network. */
    private static final int TRANSPOSED_KEPT = 8;

    private float[] edge = new float[0];
    private float[] packB = new float[0];
    private float[] tile = new float[0];
    private float[] columns = new float[0];
    private float[] partials = new float[0];
    private float[] lanes = new float[0];
    private ConvArgs convArgs;
    private GemmArgs gemmArgs;
    private ReduceArgs reduceArgs;
    private PoolArgs poolArgs;
    private OptimizerArgs optimizerArgs;
    private OptimizerTail optimizerTail;
    private DropoutArgs dropoutArgs;
    private SoftmaxArgs softmaxArgs;
    private ElementwiseArgs elementwiseArgs;
    private TransposeArgs transposeArgs;
    private RecurrentArgs recurrentArgs;
    private int[] dims = new int[0];
    private float[] tail = new float[0];
    private float[] chain = new float[0];
    private float[] patch = new float[0];
    private int[] taps = new int[0];
    private float[] image = new float[0];
    private float[] padded = new float[0];
    private float[] narrowFilter = new float[0];
    private float[] packedFilter = new float[0];
    private float[] winogradImage = new float[0];
    private float[] winogradInput = new float[0];
    private float[] winogradProducts = new float[0];
    private float[] winogradFilter = new float[0];
    private float[] winogradSums = new float[0];
    private float[] winogradTransform = new float[0];
    private float[] winogradTurned = new float[0];
    private final ConvGeometry[] transposedOf = new ConvGeometry[TRANSPOSED_KEPT];
    private final ConvGeometry[] transposed = new ConvGeometry[TRANSPOSED_KEPT];
    private int nextTransposed;
    private int[] pooledIndex = new int[0];
    private float[] pooledCell = new float[0];
    private float[] attention = new float[0];

    private Scratch() {
    }

    static Scratch get() {
        return LOCAL.get();
    }

    /** gemm's last, partial sliver of A rows, packed and padded to a full register tile. */
    float[] edge(int size) {
        if (edge.length < size) {
            edge = new float[size];
        }
        return edge;
    }

    /** Packed panels of gemm's right operand. */
    float[] packB(int size) {
        if (packB.length < size) {
            packB = new float[size];
        }
        return packB;
    }

    /** One register tile of gemm's output, for tiles cut by the matrix edge. */
    float[] tile(int size) {
        if (tile.length < size) {
            tile = new float[size];
        }
        return tile;
    }

    /** An im2col matrix (or its gradient) for a block of convolution output rows. */
    float[] columns(int size) {
        if (columns.length < size) {
            columns = new float[size];
        }
        return columns;
    }

    /**
     * A direct convolution's small buffer: one output pixel's input window (zero over the padding), or the
     * filter gradient's running sums.
     */
    float[] patch(int size) {
        if (patch.length < size) {
            patch = new float[size];
        }
        return patch;
    }

    /** One image of a convolution's output, pooled before the next image is computed. */
    float[] image(int size) {
        if (image.length < size) {
            image = new float[size];
        }
        return image;
    }

    /** One image of a convolution's input with its padding's zeros ({@link PaddedImage}). */
    float[] padded(int size) {
        if (padded.length < size) {
            padded = new float[size];
        }
        return padded;
    }

    /**
     * {@link VectorImplicitConv}'s kernel as gemm's panels; handed to the threads of the call that fills it, which
     * only read it.
     */
    float[] packedFilter(int size) {
        if (packedFilter.length < size) {
            packedFilter = new float[size];
        }
        return packedFilter;
    }

    /** One image of a {@link VectorWinogradConv} input with its padding's zeros, whole tiles of it. */
    float[] winogradImage(int size) {
        if (winogradImage.length < size) {
            winogradImage = new float[size];
        }
        return winogradImage;
    }

    /** {@link VectorWinogradConv}'s transformed inputs of one group of tiles. */
    float[] winogradInput(int size) {
        if (winogradInput.length < size) {
            winogradInput = new float[size];
        }
        return winogradInput;
    }

    /** {@link VectorWinogradConv}'s 16 products of one group of tiles and one panel of output channels. */
    float[] winogradProducts(int size) {
        if (winogradProducts.length < size) {
            winogradProducts = new float[size];
        }
        return winogradProducts;
    }

    /**
     * {@link VectorWinogradConv}'s transformed filter; handed to the threads of the call that fills it, which only
     * read it.
     */
    float[] winogradFilter(int size) {
        if (winogradFilter.length < size) {
            winogradFilter = new float[size];
        }
        return winogradFilter;
    }

    /**
     * {@link VectorWinogradFilterGradient}'s sums of the transformed filter's gradient: this thread's own, apart from
     * {@link #winogradFilter}, which this thread may have handed to a region's threads.
     */
    float[] winogradSums(int size) {
        if (winogradSums.length < size) {
            winogradSums = new float[size];
        }
        return winogradSums;
    }

    /** {@link VectorWinogradConv}'s copy of a filter turned for the input gradient, before its transform. */
    float[] winogradTurned(int size) {
        if (winogradTurned.length < size) {
            winogradTurned = new float[size];
        }
        return winogradTurned;
    }

    /** {@link VectorWinograd4}'s buffer between the two passes of a transform. */
    float[] winogradTransform(int size) {
        if (winogradTransform.length < size) {
            winogradTransform = new float[size];
        }
        return winogradTransform;
    }

    /**
     * {@link VectorNarrowConv}'s filter, each tap's channels padded to one vector, then its bias; handed to the
     * threads of the call that fills it, which only read it.
     */
    float[] narrowFilter(int size) {
        if (narrowFilter.length < size) {
            narrowFilter = new float[size];
        }
        return narrowFilter;
    }

    /** The convolution stored for {@code g} by {@link #transposed(ConvGeometry, ConvGeometry)}, or null. */
    ConvGeometry transposed(ConvGeometry g) {
        for (int i = 0; i < TRANSPOSED_KEPT; i++) {
            if (g.equals(transposedOf[i])) {
                return transposed[i];
            }
        }
        return null;
    }

    /**
     * Keeps {@code t}, the convolution whose forward pass is {@code g}'s input gradient
     * ({@link VectorNarrowInputGradient#transposed}), so that later calls with the same geometry allocate nothing;
     * the last {@link #TRANSPOSED_KEPT} geometries are kept, since a network's layers take turns on each thread.
     */
    void transposed(ConvGeometry g, ConvGeometry t) {
        transposedOf[nextTransposed] = g;
        transposed[nextTransposed] = t;
        nextTransposed = (nextTransposed + 1) % TRANSPOSED_KEPT;
    }

    /** Where each pixel of a row finds its pooled gradient ({@link PooledGradient#locate}). */
    int[] pooledIndex(int size) {
        if (pooledIndex.length < size) {
            pooledIndex = new int[size];
        }
        return pooledIndex;
    }

    /** Which cell of its window each pixel of a row is ({@link PooledGradient#locate}). */
    float[] pooledCell(int size) {
        if (pooledCell.length < size) {
            pooledCell = new float[size];
        }
        return pooledCell;
    }

    /** A direct convolution's tap offsets within the image, from a window's first cell. */
    int[] taps(int size) {
        if (taps.length < size) {
            taps = new int[size];
        }
        return taps;
    }

    /** The last, partial vector of an elementwise loop, padded to whole vectors. */
    float[] tail(int size) {
        if (tail.length < size) {
            tail = new float[size];
        }
        return tail;
    }

    /** An elementwise chain's block of running values and its rows repeated to a block's length. */
    float[] chain(int size) {
        if (chain.length < size) {
            chain = new float[size];
        }
        return chain;
    }

    /** Shapes and strides of a collapsed broadcast. */
    int[] dims(int size) {
        if (dims.length < size) {
            dims = new int[size];
        }
        return dims;
    }

    /** The reusable arguments of this thread's parallel transposes. */
    TransposeArgs transposeArgs() {
        if (transposeArgs == null) {
            transposeArgs = new TransposeArgs();
        }
        return transposeArgs;
    }

    /** The reusable arguments of this thread's parallel unary and binary element-wise calls. */
    ElementwiseArgs elementwiseArgs() {
        if (elementwiseArgs == null) {
            elementwiseArgs = new ElementwiseArgs();
        }
        return elementwiseArgs;
    }

    /** This thread's padded arrays for the last elements of an optimizer update ({@link OptimizerTail}). */
    OptimizerTail optimizerTail() {
        if (optimizerTail == null) {
            optimizerTail = new OptimizerTail();
        }
        return optimizerTail;
    }

    /** The reusable arguments of this thread's parallel dropout calls. */
    DropoutArgs dropoutArgs() {
        if (dropoutArgs == null) {
            dropoutArgs = new DropoutArgs();
        }
        return dropoutArgs;
    }

    /** The reusable arguments of this thread's parallel softmax and softmax cross-entropy calls. */
    SoftmaxArgs softmaxArgs() {
        if (softmaxArgs == null) {
            softmaxArgs = new SoftmaxArgs();
        }
        return softmaxArgs;
    }

    /** The reusable arguments of this thread's parallel optimizer updates. */
    OptimizerArgs optimizerArgs() {
        if (optimizerArgs == null) {
            optimizerArgs = new OptimizerArgs();
        }
        return optimizerArgs;
    }

    /** The reusable arguments of this thread's parallel pooling calls. */
    PoolArgs poolArgs() {
        if (poolArgs == null) {
            poolArgs = new PoolArgs();
        }
        return poolArgs;
    }

    /** The reusable arguments of this thread's parallel reductions. */
    ReduceArgs reduceArgs() {
        if (reduceArgs == null) {
            reduceArgs = new ReduceArgs();
        }
        return reduceArgs;
    }

    /** The reusable arguments of this thread's parallel matrix products. */
    GemmArgs gemmArgs() {
        if (gemmArgs == null) {
            gemmArgs = new GemmArgs();
        }
        return gemmArgs;
    }

    /** The reusable arguments of this thread's parallel convolutions. */
    ConvArgs convArgs() {
        if (convArgs == null) {
            convArgs = new ConvArgs();
        }
        return convArgs;
    }

    /** One vector's lanes, to add them in a fixed order. */
    float[] lanes(int size) {
        if (lanes.length < size) {
            lanes = new float[size];
        }
        return lanes;
    }

    /** Per-slot partial results that a parallel reduction sums at the end. */
    float[] partials(int size) {
        if (partials.length < size) {
            partials = new float[size];
        }
        return partials;
    }

    /** The reusable arguments of this thread's parallel recurrent gate passes. */
    RecurrentArgs recurrentArgs() {
        if (recurrentArgs == null) {
            recurrentArgs = new RecurrentArgs();
        }
        return recurrentArgs;
    }

    /** One attention head's packed keys and values and a block of its scores and their gradients. */
    float[] attention(int size) {
        if (attention.length < size) {
            attention = new float[size];
        }
        return attention;
    }
}
