package dev.brisk.ops.image;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One random image augmentation (Keras' {@code RandomFlip}, {@code RandomRotation}, ...): how one image
 * {@code (h, w, c)} is transformed by one draw from a generator, and the gradient of that transformation with respect
 * to the image. The backward pass makes exactly the draws the forward pass made, so the same generator state gives
 * the same transformation; this is what lets the augmentation layers and the pipeline map functions share the math,
 * and lets a layer's backward pass replay its forward draws from the step's seed instead of storing them.
 */
public interface ImageAugment {
    /**
     * Keras' class name, for errors.
     *
     * @return the name
     */
    String name();

    /**
     * Writes image {@code x} transformed by one draw from {@code random} to {@code y}.
     *
     * @param x the source images
     * @param xOff index of the image's first element
     * @param y receives the transformed image
     * @param yOff index of its first element
     * @param h the height
     * @param w the width
     * @param c the channels
     * @param random the generator (advanced by exactly the draws {@link #backward} makes)
     */
    void forward(float[] x, int xOff, float[] y, int yOff, int h, int w, int c, SplittableRandom random);

    /**
     * Writes to {@code dx} the gradient with respect to {@code x} of {@code sum(dy * forward(x))}, the draw being the
     * one {@link #forward} made from the same generator state.
     *
     * @param x the source image
     * @param xOff index of its first element
     * @param dy the gradient with respect to the transformed image
     * @param dyOff index of its first element
     * @param dx receives (overwritten) the gradient with respect to {@code x}
     * @param dxOff index of its first element
     * @param h the height
     * @param w the width
     * @param c the channels
     * @param random the generator
     */
    void backward(float[] x, int xOff, float[] dy, int dyOff, float[] dx, int dxOff, int h, int w, int c,
            SplittableRandom random);

    /**
     * Makes the draws {@link #forward} makes for one image, without transforming it: the generator left as after
     * that image, so that a thread can start a batch's transformation at any image and draw what a single thread
     * would ({@link AugmentBatch}).
     *
     * @param random the generator
     * @param h the height
     * @param w the width
     */
    void skip(SplittableRandom random, int h, int w);

    /**
     * Transforms {@code images} images in order, one draw each from {@code random}.
     *
     * @param a the augmentation
     * @param random the generator
     * @param x the source images {@code (images, h, w, c)}
     * @param xOff index of the first element
     * @param y receives the transformed images
     * @param yOff index of the first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    static void forwardAll(ImageAugment a, SplittableRandom random, float[] x, int xOff, float[] y, int yOff,
            int images, int h, int w, int c) {
        int size = h * w * c;
        for (int n = 0; n < images; n++) {
            a.forward(x, xOff + n * size, y, yOff + n * size, h, w, c, random);
        }
    }

    /**
     * The gradient of {@link #forwardAll} for the same generator state.
     *
     * @param a the augmentation
     * @param random the generator, in the state {@link #forwardAll} was given
     * @param x the source images {@code (images, h, w, c)}
     * @param xOff index of the first element
     * @param dy the gradient with respect to the transformed images
     * @param dyOff index of its first element
     * @param dx receives the gradient with respect to {@code x}
     * @param dxOff index of its first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    static void backwardAll(ImageAugment a, SplittableRandom random, float[] x, int xOff, float[] dy, int dyOff,
            float[] dx, int dxOff, int images, int h, int w, int c) {
        int size = h * w * c;
        for (int n = 0; n < images; n++) {
            a.backward(x, xOff + n * size, dy, dyOff + n * size, dx, dxOff + n * size, h, w, c, random);
        }
    }

    /**
     * An augmentation that moves pixels: each image is read through an affine map from output to input coordinates
     * ({@link AffineSampler}), the map drawn per image.
     *
     * @param name Keras' class name
     * @param sampler how the map is read
     * @param draw one image's map from the generator
     * @return the augmentation
     */
    static ImageAugment affine(String name, AffineSampler sampler, AffineDraw draw) {
        return new ImageAugment() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void forward(float[] x, int xOff, float[] y, int yOff, int h, int w, int c,
                    SplittableRandom random) {
                sampler.sample(x, xOff, h, w, c, draw.next(random, h, w), y, yOff);
            }

            @Override
            public void backward(float[] x, int xOff, float[] dy, int dyOff, float[] dx, int dxOff, int h, int w,
                    int c, SplittableRandom random) {
                Arrays.fill(dx, dxOff, dxOff + h * w * c, 0f);
                sampler.sampleAdjoint(dy, dyOff, h, w, c, draw.next(random, h, w), dx, dxOff);
            }

            @Override
            public void skip(SplittableRandom random, int h, int w) {
                draw.next(random, h, w);
            }
        };
    }

    /** Draws one image's affine map {@code {a0, a1, a2, b0, b1, b2}} ({@link AffineSampler}). */
    @FunctionalInterface
    interface AffineDraw {
        /**
         * The map for an image of {@code h} x {@code w}.
         *
         * @param random the generator
         * @param h the height
         * @param w the width
         * @return the map from output to input coordinates
         */
        double[] next(SplittableRandom random, int h, int w);
    }
}
