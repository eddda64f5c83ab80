package dev.brisk.nn;

import dev.brisk.metrics.Mean;
import java.util.Map;

/**
 * The loss logs of fit and evaluate: the total loss ({@code loss}) and, for a model with several outputs, each
 * output's weighted loss under its layer's name ({@code out_loss}), as Keras 3 logs them; each a mean over the
 * batches weighted by their sizes.
 */
final class LossLogs {
    private final Model model;
    private final Mean total = new Mean("loss");
    private final Mean[] perOutput;
    /** Whether the outputs' losses were measured (data-parallel steps give only the total). */
    private boolean measured;

    LossLogs(Model model) {
        this.model = model;
        int outputs = model.outputs().size();
        perOutput = new Mean[outputs > 1 ? outputs : 0];
        for (int i = 0; i < perOutput.length; i++) {
            perOutput[i] = new Mean(model.outputs().get(i).layer().name() + "_loss");
        }
    }

    /** The total loss, for steps that give only that (data-parallel steps). */
    Mean total() {
        return total;
    }

    void add(StepRunner.Result r, int size) {
        total.add(r.loss(), size);
        float[] each = r.outputLosses();
        if (each != null) {
            measured = true;
            for (int i = 0; i < perOutput.length && i < each.length; i++) {
                perOutput[i].add(each[i], size);
            }
        }
    }

    void reset() {
        total.reset();
        measured = false;
        for (Mean m : perOutput) {
            m.reset();
        }
    }

    /** Puts {@code loss} and the outputs' losses that were measured into {@code logs}. */
    void collect(Map<String, Double> logs, String prefix) {
        logs.put(prefix + "loss", total.result());
        for (int i = 0; measured && i < perOutput.length; i++) {
            logs.put(prefix + perOutput[i].name(), perOutput[i].result());
        }
    }
}
