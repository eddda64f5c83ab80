package dev.brisk.ops;

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
    private Tensor value;
    private Tensor aux;

    public Node(int id, OpType op, Attrs attrs, List<Node> inputs, Shape shape, String scope, Variable variable) {
        this.id = id;
        this.op = op;
        this.attrs = attrs;
        this.inputs = List.copyOf(inputs);
        this.shape = shape;
        this.scope = scope;
        this.variable = variable;
    }

    /** Position in its graph; inputs always have smaller ids. */
    public int id() {
        return id;
    }

    public OpType op() {
        return op;
    }

    public Attrs attrs() {
        return attrs;
    }

    /**
     * This node's attributes as {@code type}, the kind its op carries.
     *
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

    public List<Node> inputs() {
        return inputs;
    }

    public Node input(int i) {
        return inputs.get(i);
    }

    public Shape shape() {
        return shape;
    }

    /** The layer (or other owner) that made this node, for error messages and profiles. */
    public String scope() {
        return scope;
    }

    /** The variable of a VARIABLE node (or the target of ASSIGN/UPDATE via its first input), else null. */
    public Variable variable() {
        return variable;
    }

    /** True for ops that write a variable instead of producing a value. */
    public boolean isSideEffect() {
        return op == OpType.ASSIGN || op == OpType.UPDATE;
    }

    /** The computed value in eager mode (null while symbolic). */
    public Tensor value() {
        return value;
    }

    public void setValue(Tensor value) {
        this.value = value;
    }

    /**
     * Extra per-node state a kernel keeps for the backward pass, in eager mode: dropout's mask, a softmax
     * cross-entropy's probabilities (see {@link ShapeInference#auxShape}).
     */
    public Tensor aux() {
        return aux;
    }

    public void setAux(Tensor aux) {
        this.aux = aux;
    }

    @Override
    public String toString() {
        return "%" + id + " = " + op + (scope.isEmpty() ? "" : " [" + scope + "]") + " " + shape;
    }
}
