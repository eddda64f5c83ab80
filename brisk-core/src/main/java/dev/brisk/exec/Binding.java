package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds every kernel call of a plan once, to the storage {@link BufferAssignment} and {@link AuxValues} chose: one
 * instruction per live node that runs, in plan order, where a fused chain binds at its last node
 * ({@link FusedBinder}) and nodes without a kernel call (variables, constants, inputs, views: {@link Views}) bind none.
 *
 * @param code the instructions, in plan order
 * @param nodes per instruction, the node it computes (a chain's description for a fused call)
 * @param outputs per instruction, the tensor it writes (null for a side effect)
 */
record Binding(List<Instruction> code, List<Node> nodes, List<Tensor> outputs) {
    /** Binds the live nodes of {@code nodes} that run, reading and writing {@code buffers}. */
    static Binding of(List<Node> nodes, boolean[] live, Fusion fusion, Liveness liveness,
                      KernelBinder.Buffers buffers, Kernels kernels) {
        List<Instruction> code = new ArrayList<>();
        List<Node> codeNodes = new ArrayList<>();
        List<Tensor> codeOutputs = new ArrayList<>();
        for (Node n : nodes) {
            if (!live[n.id()] || fusion.absorbed(n) || fusion.writtenByChain(n) || liveness.storageRoot(n) != n) {
                continue;
            }
            Tensor out = buffers.valueOf(n);
            FusedChain chain = fusion.endedBy(n);
            FusedChain routed = fusion.routedFor(n);
            Instruction instruction = chain != null ? FusedBinder.bind(chain, out, buffers, kernels)
                    : routed != null ? FusedBinder.bindRoutedReader(n, routed, out, buffers, kernels)
                    : KernelBinder.bind(n, out, buffers, kernels);
            if (instruction != null) {
                code.add(instruction);
                codeNodes.add(chain != null ? chain.describe() : routed != null ? routed.describeReadBy(n) : n);
                codeOutputs.add(out);
            }
        }
        return new Binding(code, codeNodes, codeOutputs);
    }
}
