/**
 * The process-wide thread budget and the one shared compute pool: {@link dev.brisk.parallel.ThreadBudget} sets how
 * many threads Brisk uses, {@link dev.brisk.parallel.Parallel#forRange} splits a range over them, and a
 * {@link dev.brisk.parallel.Reservation} lends compute threads to an input pipeline.
 *
 * <p>Public API (mainly {@code ThreadBudget}); the layer just above {@code tensor}.
 */
package dev.brisk.parallel;
