package dev.brisk.cli;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TensorBoard;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TokenWindows;
import dev.brisk.io.tensorboard.ProfileTraces;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.plot.HistoryPlot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code brisk train --workload w4|w4-gru}: trains a character-level language model on the fortunes text
 * ({@link CharacterCorpus}), windows of {@value Workloads#WINDOW} characters with their next characters as targets,
 * the training windows every {@code --window-stride} characters, the held-out windows side by side; reports the
 * held-out cross-entropy in bits per character and the training throughput in characters (tokens) per second,
 * prints a generated sample, and ends with the RESULT line, its test figure the held-out loss in nats, and
 * {@code tokens_per_s=} and {@code bits_per_char=} added.
 */
final class LanguageModelRun {
    /** What the generated sample continues. */
    static final String SAMPLE_SEED = "The meaning of life is ";
    /** Characters the sample adds to its seed. */
    static final int SAMPLE_LENGTH = 160;

    private final TrainCommand options;

    LanguageModelRun(TrainCommand options) {
        this.options = options;
    }

    void run(PrintStream out) throws IOException {
        Workload workload = options.workload;
        FirstStepClock clock = new FirstStepClock();
        Path dir = options.text;
        CharacterCorpus corpus = CharacterCorpus.load(dir);
        long dataLoaded = clock.sinceJvmStart();
        int window = Workloads.WINDOW;
        InMemoryDataset train = TokenWindows.of(corpus.train(), window, options.windowStride).toDataset();
        InMemoryDataset heldOut = TokenWindows.of(corpus.heldOut(), window, window).toDataset();
        if (train.size() == 0 || heldOut.size() == 0) {
            throw new IllegalArgumentException("the text in " + dir + " is too short for " + workload.id() + ": "
                    + corpus.train().length + " training and " + corpus.heldOut().length + " held-out characters"
                    + " give " + train.size() + " and " + heldOut.size() + " windows of " + window + " (each needs "
                    + (window + 1) + ")");
        }
        if (options.limit != null && options.limit < train.size()) {
            train = train.take(options.limit);
        }
        int batchSize = options.effectiveBatchSize();
        int n = options.effectiveEpochs();
        int vocabulary = corpus.vocabulary().size();
        out.printf(Locale.ROOT, "brisk train: workload %s (%s), %d epoch%s, batch size %d, %d training windows of %d"
                        + " characters (stride %d) and %d held-out windows, %d ids (%d characters, padding, OOV),"
                        + " from %s%n", workload.id(), workload.description(), n, n == 1 ? "" : "s", batchSize,
                train.size(), window, options.windowStride, heldOut.size(), vocabulary, vocabulary - 2, dir);

        Model model = workload.languageModel(vocabulary);
        workload.compile(model);
        model.runEagerly(options.eager);
        model.printSummary();
        List<Callback> callbacks = new ArrayList<>();
        callbacks.add(clock);
        JitClock jit = new JitClock();
        callbacks.add(jit);
        if (options.tensorboard != null) {
            callbacks.add(new TensorBoard(options.tensorboard).histogramFreq(options.histogramFreq)
                    .updateFreq(options.updateFreq));
        }
        Fit fit = Fit.epochs(n).batchSize(batchSize).validation(heldOut).verbose(options.verbose)
                .callbacks(callbacks.toArray(new Callback[0]));
        if (options.profile != null) {
            fit = options.profileSteps == null ? fit.profile(options.profile)
                    : fit.profile(options.profile, options.profileSteps.first(), options.profileSteps.last());
        }
        History history = model.fit(train, fit);
        EpochStats last = model.lastEpochStats();
        if (options.tensorboard != null) {
            if (options.profile != null) {
                Path exported = ProfileTraces.export(options.profile, options.tensorboard);
                out.printf(Locale.ROOT, "profile trace copied for TensorBoard's profile plugin to %s%n", exported);
            }
            out.printf(Locale.ROOT, "TensorBoard event files in %s (tensorboard --logdir %s)%n",
                    options.tensorboard, options.tensorboard);
        }
        if (options.plot != null) {
            HistoryPlot.save(history, options.plot);
            out.printf(Locale.ROOT, "training curves saved to %s%n", options.plot);
        }

        Map<String, Double> eval = model.evaluate(heldOut, batchSize);
        double loss = eval.getOrDefault("loss", Double.NaN);
        double bitsPerChar = loss / Math.log(2);
        double samplesPerSecond = last == null ? 0 : last.samplesPerSecond();
        double tokensPerSecond = samplesPerSecond * window;
        out.printf(Locale.ROOT, "held-out: loss %.4f nats, %.4f bits per character (%d characters in %d windows)%n",
                loss, bitsPerChar, (long) heldOut.size() * window, heldOut.size());
        out.printf(Locale.ROOT, "training: %.0f tokens/s (%.1f windows/s), last epoch%n", tokensPerSecond,
                samplesPerSecond);
        String sample = TextSampler.generate(model, corpus.vocabulary(), SAMPLE_SEED, SAMPLE_LENGTH, window,
                new SplittableRandom(RandomSeed.next()));
        out.printf(Locale.ROOT, "sample (temperature %.1f):%n%s%n", TextSampler.TEMPERATURE, sample);

        ResultLine result = new ResultLine("brisk", options.mode(), workload.id(), ThreadBudget.resolve().threads(),
                samplesPerSecond, last == null ? 0 : last.coresBusy(), TestMetric.LOSS, loss, n,
                ProcStatus.peakRssMb());
        out.println(FirstStepClock.format(clock.firstStepMillis(), dataLoaded) + " " + jit.fields()
                + (options.gemmPeak ? " " + GemmPeak.fields() : ""));
        out.println(result.format() + ResultLine.languageModelFields(tokensPerSecond, bitsPerChar));
        out.flush();
    }
}
