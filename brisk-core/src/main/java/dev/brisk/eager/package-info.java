/**
 * Op-by-op (eager) execution: {@code EagerRunner} runs a node as soon as it is added, through the same binders as a
 * compiled plan, in storage that {@code backend.EagerBuffers} recycles from step to step, and
 * {@code EagerExecution} holds back the chains a plan would fuse so both modes give the same bits.
 *
 * <p>Internal: not exported from the module; selected with {@code Model.runEagerly(true)}.
 */
package dev.brisk.eager;
