/**
 * The JVM implementations of {@link dev.brisk.backend.Kernels}: {@code ScalarKernels}, the obviously-right reference,
 * and {@code VectorKernels}, written with the Vector API and tested against the scalar ones for the same results.
 *
 * <p>Internal: not exported from the module; reach these kernels through {@link dev.brisk.backend.Backends}.
 */
package dev.brisk.backend.jvm;
