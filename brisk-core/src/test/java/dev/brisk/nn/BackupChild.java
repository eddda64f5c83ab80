package dev.brisk.nn;

import dev.brisk.callbacks.BackupAndRestore;
import dev.brisk.callbacks.Callback;
import dev.brisk.io.WeightsFile;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The training run of {@link BackupAndRestoreTest}'s child JVM: a seeded model with batch normalization and
 * dropout, trained with a {@link BackupAndRestore}; with a step number, it announces that step and then hangs until
 * it is killed. At the end it writes the final weights, by position.
 */
public final class BackupChild {
    private BackupChild() {
    }

    /**
     * Trains.
     *
     * @param args backup directory, output weights file, the step to hang after (or -1)
     * @throws Exception if training fails
     */
    public static void main(String[] args) throws Exception {
        Path backup = Path.of(args[0]);
        Path out = Path.of(args[1]);
        int hangAt = Integer.parseInt(args[2]);
        Model m = BackupAndRestoreTest.model();
        Tensor[] xy = EagerVsCompiledTest.data(60, 12);
        Callback hang = new Callback() {
            private int steps;

            @Override
            public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
                if (++steps == hangAt) {
                    try {
                        Files.writeString(out.resolveSibling(out.getFileName() + ".ready"), "step " + steps);
                        Thread.sleep(600_000);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        m.fit(xy[0], xy[1], BackupAndRestoreTest.fit().callbacks(new BackupAndRestore(backup).everySteps(4), hang));
        List<Tensor> w = m.getWeights();
        Map<String, Tensor> byPosition = new LinkedHashMap<>();
        for (int i = 0; i < w.size(); i++) {
            byPosition.put("w" + i, w.get(i));
        }
        WeightsFile.save(out, byPosition);
    }
}
