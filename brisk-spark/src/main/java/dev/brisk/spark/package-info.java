/**
 * Synchronous data-parallel training of a Brisk model on Apache Spark ({@link dev.brisk.spark.SparkFit}): one
 * barrier stage with one task per worker, a ring all-reduce of the gradients over Brisk's own TCP connections
 * between the tasks, and checkpoints from which a retried stage resumes.
 */
package dev.brisk.spark;
