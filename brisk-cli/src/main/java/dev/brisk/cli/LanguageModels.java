package dev.brisk.cli;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;

/**
 * The character-level language models of W4 (docs/workloads.md): each maps a window of {@code steps} character ids,
 * INT32 {@code (batch, steps)}, to next-character logits at every position, {@code (batch, steps, vocabulary)}, and
 * sees no character after the one it predicts from, so one window trains {@code steps} predictions.
 */
final class LanguageModels {
    /** Width of the embeddings and of the transformer's residual stream. */
    static final int WIDTH = 128;
    /** Attention heads per block, each of {@link #HEAD_SIZE}. */
    static final int HEADS = 4;
    /** Query and key (and value) size of one head: {@code HEADS * HEAD_SIZE = WIDTH}. */
    static final int HEAD_SIZE = 32;
    /** Width of the feed-forward layer of a block. */
    static final int FEED_FORWARD = 512;
    /** Transformer blocks. */
    static final int BLOCKS = 2;
    /** Units of the GRU variant. */
    static final int GRU_UNITS = 256;

    private LanguageModels() {
    }

    /**
     * W4: token embedding plus a learned positional embedding (an {@code Embedding} over the positions), two
     * transformer blocks, a last layer normalization and {@code Dense(vocabulary)}. A block is written pre-norm, as
     * GPT-2 has it: {@code x + MHA(LN(x))}, then {@code x + Dense(128)(Dense(512, gelu)(LN(x)))}, attention causal
     * with 4 heads of 32. Pre-norm keeps the residual stream an identity path from the embeddings to the output, so
     * training at Adam's constant 1e-3 from the first step needs no warm-up; the final normalization is the one the
     * last block's output does not otherwise get.
     */
    static Model transformer(int vocabulary, int steps) {
        return transformer(vocabulary, steps, false);
    }

    /**
     * W4's transformer, with its length left open ({@code Shape.OPEN}) when {@code openLength}: it then takes any
     * window up to {@code steps} characters, the positions its positional embedding has.
     */
    static Model transformer(int vocabulary, int steps, boolean openLength) {
        SymbolicTensor ids = Input.of(DType.INT32, openLength ? Shape.OPEN : steps);
        SymbolicTensor tokens = Layers.embedding(vocabulary, WIDTH).apply(ids);
        SymbolicTensor positions = Layers.embedding(steps, WIDTH).apply(Layers.positions().apply(ids));
        SymbolicTensor x = Layers.add().apply(tokens, positions);
        for (int b = 0; b < BLOCKS; b++) {
            SymbolicTensor h = Layers.layerNormalization().apply(x);
            h = Layers.multiHeadAttention(HEADS, HEAD_SIZE, true).apply(h, h);
            x = Layers.add().apply(x, h);
            h = Layers.layerNormalization().apply(x);
            h = Layers.dense(FEED_FORWARD, Activation.GELU).apply(h);
            h = Layers.dense(WIDTH).apply(h);
            x = Layers.add().apply(x, h);
        }
        x = Layers.layerNormalization().apply(x);
        return Model.of(ids, Layers.dense(vocabulary).apply(x));
    }

    /** W4's GRU variant: token embedding, {@code GRU(256)} returning every step's state, {@code Dense(vocabulary)}. */
    static Model gru(int vocabulary, int steps) {
        return gru(vocabulary, steps, false);
    }

    /** W4's GRU variant, with its length left open ({@code Shape.OPEN}) when {@code openLength}. */
    static Model gru(int vocabulary, int steps, boolean openLength) {
        return Sequential.of(
                Layers.input(DType.INT32, openLength ? Shape.OPEN : steps),
                Layers.embedding(vocabulary, WIDTH),
                Layers.gru(GRU_UNITS, true, false),
                Layers.dense(vocabulary));
    }

    /**
     * Forward multiply-adds per window of the transformer: per position the attention's four projections and the
     * feed-forward layer of each block and the output layer, plus attention's two batched products (scores and
     * weighted values) counted over all {@code steps} key positions, the causally masked ones included, as the
     * kernels compute them.
     */
    static long transformerMacs(int vocabulary, int steps) {
        long perPosition = BLOCKS * (4L * WIDTH * WIDTH + 2L * WIDTH * FEED_FORWARD + 2L * steps * WIDTH)
                + (long) WIDTH * vocabulary;
        return perPosition * steps;
    }

    /** Forward multiply-adds per window of the GRU variant: its three gates' input and recurrent products, output. */
    static long gruMacs(int vocabulary, int steps) {
        long perPosition = 3L * GRU_UNITS * (WIDTH + GRU_UNITS) + (long) GRU_UNITS * vocabulary;
        return perPosition * steps;
    }
}
