package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code Embedding}: maps INT32 token ids {@code (batch, ..)} to rows of a trainable table, output
 * {@code (batch, .., outputDim)}. The table is the weight {@code embeddings}, {@code (inputDim, outputDim)} as in
 * Keras; an id outside {@code [0, inputDim)} is an error naming the id and the vocabulary size. With {@code maskZero}
 * id 0 is padding: the layer attaches the mask {@code id != 0} to its output ({@link Graph#maskOf}), which
 * {@link GlobalAveragePooling1D} reads today.
 */
public final class Embedding extends Layer {
    private final int inputDim;
    private final int outputDim;
    private final Initializer embeddingsInitializer;
    private final boolean maskZero;
    private Variable embeddings;

    /**
     * An embedding of a vocabulary of {@code inputDim} ids into {@code outputDim} dimensions.
     *
     * @param inputDim the vocabulary size (largest id + 1)
     * @param outputDim the size of each embedding vector
     * @param embeddingsInitializer makes the table's initial value (Keras' default uniform in [-0.05, 0.05])
     * @param maskZero whether id 0 is padding, masked in the layers that read the mask
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a dimension is not positive
     */
    public Embedding(int inputDim, int outputDim, Initializer embeddingsInitializer, boolean maskZero, String name) {
        super(name);
        if (inputDim < 1 || outputDim < 1) {
            throw new IllegalArgumentException("Embedding needs positive inputDim and outputDim, got " + inputDim
                    + " and " + outputDim);
        }
        this.inputDim = inputDim;
        this.outputDim = outputDim;
        this.embeddingsInitializer = embeddingsInitializer;
        this.maskZero = maskZero;
    }

    /**
     * The vocabulary size.
     *
     * @return the number of table rows
     */
    public int inputDim() {
        return inputDim;
    }

    /**
     * The embedding size.
     *
     * @return the length of each table row
     */
    public int outputDim() {
        return outputDim;
    }

    /**
     * Whether id 0 is padding.
     *
     * @return true when the layer masks id 0
     */
    public boolean maskZero() {
        return maskZero;
    }

    /**
     * The table; null before the layer is built.
     *
     * @return the weight {@code embeddings}, {@code [inputDim, outputDim]}
     */
    public Variable embeddings() {
        return embeddings;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        int[] dims = java.util.Arrays.copyOf(in.dims(), in.rank() + 1);
        dims[in.rank()] = outputDim;
        return Shape.of(dims);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        embeddings = addWeight("embeddings", Shape.of(inputDim, outputDim), embeddingsInitializer, true, null,
                inputDim, outputDim);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node ids = inputs.get(0);
        if (ids.dtype() != DType.INT32) {
            throw new IllegalArgumentException("Embedding '" + name() + "' needs INT32 token ids but got "
                    + ids.dtype() + " input " + withBatch(ids.shape().dropFirst())
                    + "; make the ids with Tensor.ofInts and declare the input with Input.of(DType.INT32, ..)");
        }
        Node out;
        try {
            out = g.embeddingLookup(g.variable(embeddings), ids);
        } catch (IllegalArgumentException e) {
            // An eager graph runs the lookup here, so an id out of range surfaces here: name the layer, as a
            // compiled plan's error does.
            if (e.getMessage() != null && e.getMessage().startsWith("layer '")) {
                throw e;
            }
            throw new IllegalArgumentException("layer '" + name() + "' (Embedding): " + e.getMessage(), e);
        }
        if (maskZero) {
            g.setMask(out, g.nonzeroMask(ids));
        }
        return out;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("input_dim", inputDim);
        c.put("output_dim", outputDim);
        c.put("embeddings_initializer", embeddingsInitializer);
        c.put("embeddings_regularizer", null);
        c.put("activity_regularizer", null);
        c.put("embeddings_constraint", null);
        c.put("mask_zero", maskZero);
        return c;
    }
}
