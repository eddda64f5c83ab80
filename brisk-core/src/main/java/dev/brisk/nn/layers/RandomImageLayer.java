package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.ops.ImageAugmentAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.image.ImageAugment;
import dev.brisk.tensor.Shape;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The base of Keras 3's random augmentation layers ({@code RandomFlip}, {@code RandomRotation}, {@code RandomZoom},
 * {@code RandomTranslation}, {@code RandomContrast}): in training each image of the batch {@code (n, h, w, c)} is
 * transformed by its own draw (one IMAGE_AUGMENT op, its generator seeded with the step's seed mixed with the layer's
 * own, as Dropout's mask), so the draws change every step without retracing and are the same eager and compiled;
 * outside training the layer is the identity. The math is the pipeline map functions' ({@code
 * dev.brisk.data.preprocessing}), shared through {@link ImageAugment}. The gradient with respect to the images is
 * that of the drawn transformation.
 */
public abstract class RandomImageLayer extends Layer {
    private final ImageAugment augment;
    /** The layer's own seed, mixed with each step's seed (drawn from RandomSeed if not set), as Dropout's. */
    private volatile long salt = RandomSeed.next();

    /**
     * A layer applying {@code augment} in training.
     *
     * @param augment what one draw does to one image
     * @param name the layer's name, or null for an automatic one
     */
    protected RandomImageLayer(ImageAugment augment, String name) {
        super(name);
        this.augment = augment;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape x = single(inputShapes);
        if (x.rank() != 3) {
            throw new IllegalArgumentException(augment.name() + " '" + name()
                    + "' takes images (height, width, channels) per sample, got " + x);
        }
        return x;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (!ctx.training()) {
            return x;
        }
        return g.imageAugment(new ImageAugmentAttrs(augment, salt), x, ctx.seed());
    }

    @Override
    public OptionalLong seed() {
        return OptionalLong.of(salt);
    }

    @Override
    public RandomImageLayer setSeed(long seed) {
        this.salt = seed;
        return this;
    }

    /** Keras' {@code get_config()}: the subclass's arguments and the seed. */
    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("seed", salt);
        return c;
    }

    /** A Keras {@code (lower, upper)} factor as the list Keras writes. */
    static List<Double> pair(double lower, double upper) {
        return List.of(lower, upper);
    }
}
