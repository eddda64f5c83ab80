package dev.brisk.data.preprocessing;

import dev.brisk.ops.image.ImageAugment;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;

/** The layout of an image tensor: one image {@code (h, w, c)} or a batch {@code (n, h, w, c)}. */
record ImageShape(int images, int height, int width, int channels) {

    /** The layout of {@code x}, or an error naming {@code who} and the shape. */
    static ImageShape of(Tensor x, String who) {
        int rank = x.shape().rank();
        if (rank != 3 && rank != 4) {
            throw new IllegalArgumentException(who + " takes images (height, width, channels) or batches of them, "
                    + "got shape " + x.shape());
        }
        int o = rank - 3;
        return new ImageShape(rank == 4 ? x.shape().dim(0) : 1, x.shape().dim(o), x.shape().dim(o + 1),
                x.shape().dim(o + 2));
    }

    int imageSize() {
        return height * width * channels;
    }

    /** Each image of {@code x} (one image or a batch) transformed by {@code a}, one draw each from {@code random}. */
    static Tensor apply(Tensor x, String who, ImageAugment a, SplittableRandom random) {
        ImageShape s = of(x, who);
        float[] out = new float[x.size()];
        ImageAugment.forwardAll(a, random, x.data(), x.offset(), out, 0, s.images(), s.height(), s.width(),
                s.channels());
        return Tensor.wrap(out, 0, x.shape());
    }
}
