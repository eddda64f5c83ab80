package dev.brisk.cli;

import dev.brisk.data.preprocessing.Vocabulary;
import dev.brisk.nn.Model;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Text written by a character-level language model from a seed string: each next character is drawn from the
 * model's softmax at the last position of the context, sharpened by a temperature, then appended to the context.
 * The context is the last {@code window} characters. A model of fixed length {@code window} reads it at the start of
 * its window, the rest being padding, which the model cannot see from the position read, as it looks only backwards
 * (causal attention, a forward recurrence). A model that leaves its length open ({@code Shape.OPEN}) reads the
 * context alone, unpadded, so it grows a character a step until it is {@code window} long; each new length is one
 * more compiled step (kept in the model's plan cache), the price of not computing the padding. Padding and OOV are
 * never drawn.
 */
final class TextSampler {
    /** Below 1 sharpens the distribution: fewer misspellings than drawing from it as it is. */
    static final float TEMPERATURE = 0.8f;

    private TextSampler() {
    }

    /**
     * The seed followed by {@code length} drawn characters.
     *
     * @param model a model from {@code (1, steps)} ids to {@code (1, steps, vocabulary)} logits, {@code steps} its
     *              declared length {@code window} or open
     * @param vocabulary the model's characters
     * @param seed the text to continue, at least one character
     * @param length characters to draw
     * @param window the longest context read, the length the model was trained on
     * @param random seeded, for a reproducible sample
     * @return the seed and its continuation
     */
    static String generate(Model model, Vocabulary vocabulary, String seed, int length, int window,
                           SplittableRandom random) {
        int declared = model.inputs().get(0).shape().dim(0);
        boolean open = declared == Shape.OPEN;
        if (!open && declared != window) {
            throw new IllegalArgumentException("the model reads windows of " + declared + " characters, not "
                    + window);
        }
        int steps = window;
        List<Integer> context = new ArrayList<>();
        for (int id : vocabulary.encodeCharacters(seed)) {
            context.add(id);
        }
        if (context.isEmpty()) {
            throw new IllegalArgumentException("the seed of a generated sample needs at least one character");
        }
        StringBuilder out = new StringBuilder(seed);
        int classes = vocabulary.size();
        int[] padded = new int[steps];
        double[] p = new double[classes];
        for (int n = 0; n < length; n++) {
            int used = Math.min(steps, context.size());
            int[] ids = open ? new int[used] : padded;
            java.util.Arrays.fill(ids, Vocabulary.PADDING);
            for (int i = 0; i < used; i++) {
                ids[i] = context.get(context.size() - used + i);
            }
            Tensor logits = model.predict(Tensor.ofInts(ids, 1, ids.length), 1);
            int row = (used - 1) * classes;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 2; c < classes; c++) {
                max = Math.max(max, logits.get(row + c) / TEMPERATURE);
            }
            double sum = 0;
            for (int c = 0; c < classes; c++) {
                p[c] = c < 2 ? 0 : Math.exp(logits.get(row + c) / TEMPERATURE - max);
                sum += p[c];
            }
            double u = random.nextDouble() * sum;
            int next = classes - 1;
            for (int c = 2; c < classes; c++) {
                u -= p[c];
                if (u < 0) {
                    next = c;
                    break;
                }
            }
            context.add(next);
            out.append(vocabulary.token(next));
        }
        return out.toString();
    }
}
