package dev.brisk.ops;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * One op application in a graph: its type, attributes, inputs and inferred output shape. In eager mode the node
 * also carries its computed {@link #value()}.
 */
public final class Node {
    private final int id;
    private final OpType op;
    private final Attrs attrs;
    private final List<Node> inputs;
    private final Shape shape;
    private final String scope;
    private final Variable variable;
    private final DType dtype;
    private Tensor value;
    private Tensor aux;

    /**
     * A node; graphs make them through their builder methods, which infer {@code shape}.
     *
     * @param id its position in the graph
     * @param op the operation
     * @param attrs the op's attributes, {@link NoAttrs#INSTANCE} for none
     * @param inputs the nodes it reads
     * @param shape the shape of its output
     * @param scope the layer (or other owner) that made it
     * @param variable the variable of a VARIABLE, ASSIGN or UPDATE node, else null
     */
    public Node(int id, OpType op, Attrs attrs, List<Node> inputs, Shape shape, String scope, Variable variable) {
        this(id, op, attrs, inputs, shape, scope, variable, DType.FLOAT32);
    }

    /**
     * A node whose output has element type {@code dtype}.
     *
     * @param id its position in the graph
     * @param op the operation
     * @param attrs the op's attributes, {@link NoAttrs#INSTANCE} for none
     * @param inputs the nodes it reads
     * @param shape the shape of its output
     * @param scope the layer (or other owner) that made it
     * @param variable the variable of a VARIABLE, ASSIGN or UPDATE node, else null
     * @param dtype the element type of its output
     */
    public Node(int id, OpType op, Attrs attrs, List<Node> inputs, Shape shape, String scope, Variable variable,
                DType dtype) {
        this.dtype = dtype;
        this.id = id;
        this.op = op;
        this.attrs = attrs;
        this.inputs = List.copyOf(inputs);
        this.shape = shape;
        this.scope = scope;
        this.variable = variable;
    }

    /**
     * Position in its graph; inputs always have smaller ids.
     *
     * @return the id
     */
    public int id() {
        return id;
    }

    /**
     * The operation this node computes.
     *
     * @return the op
     */
    public OpType op() {
        return op;
    }

    /**
     * The op's attributes, of the record type the op carries.
     *
     * @return the attributes
     */
    public Attrs attrs() {
        return attrs;
    }

    /**
     * This node's attributes as {@code type}, the kind its op carries.
     *
     * @param <A> the attribute type
     * @param type the attribute record's class
     * @return the attributes
     * @throws IllegalStateException naming this node and {@code type} when its attributes are of another kind
     */
    public <A extends Attrs> A attrs(Class<A> type) {
        if (!type.isInstance(attrs)) {
            throw new IllegalStateException("node " + this + " carries "
                    + (attrs == null ? "no attributes" : attrs.getClass().getSimpleName()) + ", not "
                    + type.getSimpleName());
        }
        return type.cast(attrs);
    }

    /**
     * The nodes this node reads, in operand order.
     *
     * @return the inputs
     */
    public List<Node> inputs() {
        return inputs;
    }

    /**
     * Input {@code i}.
     *
     * @param i the operand index
     * @return the input node
     */
    public Node input(int i) {
        return inputs.get(i);
    }

    /**
     * The element type of this node's output ({@link DType#INT32} for token ids, else {@link DType#FLOAT32}).
     *
     * @return the dtype
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The shape of this node's output, batch axis included.
     *
     * @return the shape
     */
    public Shape shape() {
        return shape;
    }

    /**
     * The layer (or other owner) that made this node, for error messages and profiles.
     *
     * @return the scope
     */
    public String scope() {
        return scope;
    }

    /**
     * The variable of a VARIABLE node (or the target of ASSIGN/UPDATE via its first input), else null.
     *
     * @return the variable, or null
     */
    public Variable variable() {
        return variable;
    }

    /**
     * True for ops that write a variable instead of producing a value.
     *
     * @return true for ASSIGN and UPDATE nodes
     */
    public boolean isSideEffect() {
        return op == OpType.ASSIGN || op == OpType.UPDATE;
    }

    /**
     * The computed value in eager mode (null while symbolic).
     *
     * @return the value, or null
     */
    public Tensor value() {
        return value;
    }

    /**
     * Sets the computed value (eager mode).
     *
     * @param value the value
     */
    public void setValue(Tensor value) {
        this.value = value;
    }

    /**
     * Extra per-node state a kernel keeps for the backward pass, in eager mode: dropout's mask, a softmax
     * cross-entropy's probabilities (see {@link ShapeInference#auxShape}).
     *
     * @return the state, or null
     */
    public Tensor aux() {
        return aux;
    }

    /**
     * Sets the state kept for the backward pass (eager mode).
     *
     * @param aux the state
     */
    public void setAux(Tensor aux) {
        this.aux = aux;
    }

    @Override
    public String toString() {
        return "%" + id + " = " + op + (scope.isEmpty() ? "" : " [" + scope + "]") + " " + shape;
    }
}
