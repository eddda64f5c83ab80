package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import java.util.List;

/** The entry point of a model: declares the per-sample shape of one input. */
public final class InputLayer extends Layer {
    private final Shape shape;
    private final DType dtype;
    private final SymbolicTensor output;

    /**
     * An input of per-sample {@code shape} named {@code name}.
     *
     * @param shape the per-sample shape
     * @param name the name, or null for an automatic one
     */
    public InputLayer(Shape shape, String name) {
        this(shape, DType.FLOAT32, name);
    }

    /**
     * An input of per-sample {@code shape} and element type {@code dtype} (Keras' {@code Input(shape, dtype=...)}):
     * token ids are {@link DType#INT32}.
     *
     * @param shape the per-sample shape
     * @param dtype the element type the data must have
     * @param name the name, or null for an automatic one
     */
    public InputLayer(Shape shape, DType dtype, String name) {
        super(name);
        this.dtype = dtype;
        this.shape = shape;
        this.output = new SymbolicTensor(this, List.of(), shape);
        ensureBuilt(List.of());
    }

    /**
     * The per-sample shape of the input.
     *
     * @return the shape without the batch axis
     */
    public Shape shape() {
        return shape;
    }

    /**
     * The symbolic tensor to apply further layers to.
     *
     * @return the input's symbolic tensor
     */
    public SymbolicTensor output() {
        return output;
    }

    /**
     * The element type the input's data must have.
     *
     * @return the dtype
     */
    public DType dtype() {
        return dtype;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return shape;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (x.dtype() != dtype) {
            throw new IllegalArgumentException("input '" + name() + "' is declared " + dtype + " but was given "
                    + x.dtype() + " data" + (dtype == DType.INT32 ? "; make the ids with Tensor.ofInts" : ""));
        }
        return x;
    }

    /**
     * Keras' InputLayer configuration: {@code batch_shape} (the batch axis null, and every open axis, as Keras
     * writes {@code Input(shape=(None, 8))}), {@code dtype}, {@code sparse}, name.
     */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
        List<Integer> batchShape = new java.util.ArrayList<>();
        batchShape.add(null);
        for (int d : shape.dims()) {
            batchShape.add(d == Shape.OPEN ? null : d);
        }
        c.put("batch_shape", batchShape);
        c.put("dtype", dtype == DType.INT32 ? "int32" : "float32");
        c.put("sparse", false);
        c.put("name", name());
        return c;
    }
}
