/**
 * Files: {@link dev.brisk.io.WeightsFile} saves and loads model weights (with a checksum per tensor),
 * {@link dev.brisk.io.AtomicFiles} writes a file so that a crash leaves the old one or the new one, never half of
 * either (and the next save removes the temporary a crash left), and
 * {@link dev.brisk.io.CountingInputStream} gives errors a byte offset.
 *
 * <p>Public API; the layer above {@code graph}.
 */
package dev.brisk.io;
