/**
 * Compiled execution: {@code Planner} turns a traced graph into a {@code Plan} (dead-code removal, fusion,
 * liveness-based buffer reuse) whose bound kernel calls ({@code KernelBinder}, {@code FusedBinder}) replay every
 * step without allocating; {@code Schedule} can run independent instructions side by side.
 *
 * <p>Internal: not exported from the module; models use it through {@code Model} in the {@code nn} package.
 */
package dev.brisk.exec;
