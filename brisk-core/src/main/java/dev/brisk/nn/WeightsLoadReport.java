package dev.brisk.nn;

import java.util.List;

/**
 * What a load of weights by name did (see {@link Model#loadWeightsByName}): which weights it set, which it skipped
 * because the saved value's shape differs, which of the model's weights the source did not have, and which saved
 * weights the model has no weight for. Names are full weight names, {@code <layer>/<weight>}.
 *
 * @param loaded the model's weights that were set, in the model's order
 * @param skipped the model's weights left as they were because the saved shape differs, each as
 *     {@code name: saved (a, b), model (c, d)}
 * @param missing the model's weights the source has no value for (left as they were)
 * @param unused the source's weights that no weight of the model is named after
 */
public record WeightsLoadReport(List<String> loaded, List<String> skipped, List<String> missing,
                                List<String> unused) {
    /**
     * Copies the lists.
     *
     * @param loaded the weights set
     * @param skipped the weights skipped, with the shapes
     * @param missing the model's weights without a saved value
     * @param unused the saved weights without a model weight
     */
    public WeightsLoadReport {
        loaded = List.copyOf(loaded);
        skipped = List.copyOf(skipped);
        missing = List.copyOf(missing);
        unused = List.copyOf(unused);
    }

    /** One line per group, for a log. */
    @Override
    public String toString() {
        return "loaded " + loaded.size() + " weight(s) " + loaded + "\nskipped " + skipped.size() + " (shape differs) "
                + skipped + "\nmissing from the source " + missing.size() + " " + missing + "\nunused in the source "
                + unused.size() + " " + unused;
    }
}
