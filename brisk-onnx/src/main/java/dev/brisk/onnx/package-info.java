/**
 * ONNX export of Brisk models for inference: {@link dev.brisk.onnx.OnnxExport}.
 *
 * <p>The exporter traces the model's inference graph (the graph {@code predict} runs: dropout off, batch
 * normalization with its moving statistics) and translates it op by op into ONNX operators; an op, function or
 * attribute it does not know is an {@link dev.brisk.onnx.OnnxExportException} naming the layer, never a silently
 * different model.
 */
package dev.brisk.onnx;
