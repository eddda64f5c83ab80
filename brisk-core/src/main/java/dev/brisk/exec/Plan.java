package dev.brisk.exec;

import dev.brisk.backend.KernelTimer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * A compiled step: a fixed list of bound kernel calls over buffers planned once. Each {@link #run()} reads the
 * tensors fed through {@link #input(Node)} and leaves results in {@link #output(Node)}; nothing is allocated.
 */
public final class Plan {
    private final Instruction[] instructions;
    private final Node[] instructionNodes;
    private final Schedule schedule;
    private final Map<Node, Tensor> inputs;
    private final Map<Node, Tensor> outputs;
    private final long plannedFloats;
    private final int bufferCount;
    private final long keptFloats;

    Plan(List<Instruction> instructions, List<Node> instructionNodes, Schedule schedule, Map<Node, Tensor> inputs,
         Map<Node, Tensor> outputs, long plannedFloats, int bufferCount, long keptFloats) {
        this.instructions = instructions.toArray(new Instruction[0]);
        this.instructionNodes = instructionNodes.toArray(new Node[0]);
        this.schedule = schedule;
        this.inputs = inputs;
        this.outputs = outputs;
        this.plannedFloats = plannedFloats;
        this.bufferCount = bufferCount;
        this.keptFloats = keptFloats;
    }

    /** The buffer an INPUT node reads; fill it (or use {@link #feed}) before {@link #run()}. */
    public Tensor input(Node node) {
        Tensor t = inputs.get(node);
        if (t == null) {
            throw new IllegalArgumentException(node + " is not an input of this plan");
        }
        return t;
    }

    /** True when the plan reads {@code node} (inputs no output depends on are dropped when compiling). */
    public boolean hasInput(Node node) {
        return inputs.containsKey(node);
    }

    /**
     * Copies {@code value} into the buffer of an INPUT node, checking the shape; a value that already is that
     * buffer (a batch gathered into {@link #input(Node)}) is not copied.
     */
    public void feed(Node node, Tensor value) {
        Tensor t = input(node);
        if (!t.shape().equals(value.shape())) {
            throw new IllegalArgumentException("input '" + node.scope() + "' expects shape " + t.shape()
                    + " but was fed " + value.shape());
        }
        if (value.dtype() != node.dtype()) { // the copy moves bits: int ids read as floats would be garbage
            throw new IllegalArgumentException("input '" + node.scope() + "' expects " + node.dtype()
                    + " values but was fed " + value.dtype());
        }
        if (value.data() != t.data() || value.offset() != t.offset()) {
            t.copyFrom(value);
        }
    }

    /** Runs every instruction once, in order, or side by side where the schedule grouped independent ones. */
    public void run() {
        schedule.run();
    }

    /**
     * Runs every instruction once as {@link #run()} does, telling {@code timer} when each started and ended (and
     * on which thread, for instructions run side by side). A separate loop so that unprofiled steps pay nothing
     * for profiling.
     */
    public void run(KernelTimer timer) {
        schedule.run(timer);
    }

    /** The tensor holding an output after {@link #run()}; valid until the next run. */
    public Tensor output(Node node) {
        Tensor t = outputs.get(node);
        if (t == null) {
            throw new IllegalArgumentException(node + " is not an output of this plan");
        }
        return t;
    }

    /**
     * Number of groups of independent instructions that run side by side, or are still timing whether that is
     * faster (0 when the plan runs its instructions one by one: the default, see {@link Schedule}).
     */
    public int concurrentGroups() {
        return schedule.concurrentGroups();
    }

    /** One line per group of instructions run side by side: members by lane, and what its trial measured. */
    public String describeSchedule() {
        return schedule.describe();
    }

    /** Number of kernel calls per step. */
    public int instructionCount() {
        return instructions.length;
    }

    /** The nodes of the instructions, in execution order (for profiles). */
    public List<Node> instructionNodes() {
        return List.of(instructionNodes);
    }

    /** Floats in the planned intermediate buffers (after reuse by liveness). */
    public long plannedFloats() {
        return plannedFloats;
    }

    /** Number of distinct intermediate buffers. */
    public int bufferCount() {
        return bufferCount;
    }

    /**
     * Floats of the state nodes keep beside their outputs for their gradients (dropout's masks, a cross-entropy's
     * probabilities, max pooling's cells), outside the planned buffers.
     */
    public long keptFloats() {
        return keptFloats;
    }
}
