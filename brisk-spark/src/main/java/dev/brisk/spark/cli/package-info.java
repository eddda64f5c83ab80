/**
 * {@code brisk train --master URL --workers N}: brisk-cli's {@link dev.brisk.cli.ClusterTraining}, implemented
 * with {@link dev.brisk.spark.SparkFit} (found through {@link java.util.ServiceLoader}).
 */
package dev.brisk.spark.cli;
