package dev.brisk.cli;

import java.util.List;
import org.apache.commons.cli.Options;

/** {@code brisk summary --model FILE.keras}: the saved model's summary table. */
final class SummaryCommand extends ModelFileCommand {
    private static final List<String> DESCRIPTION = List.of(
            "Prints the summary of a model saved in a .keras file (layers, shapes, parameters) and how it was"
                    + " compiled.");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.required("model", "FILE", "The .keras file (written by brisk train --save or Keras 3)."));

    SummaryCommand() {
        super("summary", DESCRIPTION, OPTIONS);
    }

    @Override
    int call() throws Exception {
        dev.brisk.nn.Model m = load();
        System.out.print(m.summary());
        if (m.optimizer() != null) {
            System.out.printf(java.util.Locale.ROOT, "Optimizer: %s, %d step(s) taken, learning rate %s%n",
                    m.optimizer().name(), m.optimizer().iterations(), m.optimizer().learningRate());
            System.out.println("Loss: " + m.compiledLosses().stream().map(l -> l.name()).toList());
        }
        System.out.flush();
        return 0;
    }
}
