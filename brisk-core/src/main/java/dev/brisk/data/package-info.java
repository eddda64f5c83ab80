/**
 * Training data: {@link dev.brisk.data.Dataset} and {@link dev.brisk.data.InMemoryDataset} (seeded shuffle and
 * batching), readers for IDX ({@link dev.brisk.data.IdxDatasets}, {@link dev.brisk.data.FashionMnist}), CSV, NPY and
 * image directories, and the tf.data-style input {@link dev.brisk.data.Pipeline}.
 *
 * <p>Public API; the layer above {@code profile}.
 */
package dev.brisk.data;
