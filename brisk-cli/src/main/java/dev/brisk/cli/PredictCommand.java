package dev.brisk.cli;

import dev.brisk.data.NpyReader;
import dev.brisk.nn.Model;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.Options;

/** {@code brisk predict --model FILE.keras --input X.npy --output Y.npy}: the model's outputs for an array. */
final class PredictCommand extends ModelFileCommand {
    private static final List<String> DESCRIPTION = List.of(
            "Runs a model saved in a .keras file on the samples of a NumPy array and writes its outputs as another.");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.required("model", "FILE", "The .keras file (written by brisk train --save or Keras 3)."),
            CliOptions.required("input", "X.npy", "The inputs, samples first, float32 (or int32 for token ids);"
                    + " each sample of the model's input shape, or of that many values."),
            CliOptions.required("output", "Y.npy", "Where the outputs go (float32, samples first); replaced"
                    + " atomically."),
            CliOptions.valued("batch-size", "N", "Samples per batch (default: 128)."));
    Path input;
    Path output;
    int batchSize = 128;

    PredictCommand() {
        super("predict", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        super.read(v);
        input = v.path("input", null);
        output = v.path("output", null);
        batchSize = v.integer("batch-size", batchSize);
        if (batchSize < 1) {
            throw new UsageException("--batch-size must be at least 1, got " + batchSize);
        }
    }

    @Override
    int call() throws Exception {
        Model m = load();
        if (m.inputs().size() != 1 || m.outputs().size() != 1) {
            throw new IllegalArgumentException(model + ": predict takes models with one input and one output; this"
                    + " one has " + m.inputs().size() + " and " + m.outputs().size());
        }
        Tensor x = NpyReader.read(input);
        Shape sample = m.inputs().get(0).shape();
        if (x.shape().rank() < 1) {
            throw new IllegalArgumentException(input + ": a scalar is not an array of samples");
        }
        int n = x.shape().dim(0);
        if (!sample.accepts(x.shape().dropFirst())) { // an open axis (a sequence length) takes the file's size
            if (sample.isOpen() || x.shape().size() != (long) n * sample.size()) {
                throw new IllegalArgumentException(input + ": samples of shape " + x.shape().dropFirst()
                        + " do not fit the model's input " + dev.brisk.nn.Layer.withBatch(sample));
            }
            int[] dims = new int[sample.rank() + 1];
            dims[0] = n;
            System.arraycopy(sample.dims(), 0, dims, 1, sample.rank());
            x = x.reshape(Shape.of(dims));
        }
        Tensor y = m.predict(x, batchSize);
        NpyFiles.write(output, y);
        System.out.printf(Locale.ROOT, "brisk predict: %d sample(s) of %s -> %s written to %s%n", n,
                dev.brisk.nn.Layer.withBatch(sample), dev.brisk.nn.Layer.withBatch(y.shape().dropFirst()), output);
        System.out.flush();
        return 0;
    }
}
