package dev.brisk.data;

import dev.brisk.tensor.Shape;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Loads Fashion-MNIST (Zalando's 28x28 grayscale clothing images, 10 classes) from its four IDX files.
 *
 * <p>Features are float32 {@code [N, 28, 28, 1]} scaled to [0, 1] as {@code pixel / 255f}; labels are float32
 * {@code [N]} class indexes 0..9 naming {@link #CLASS_NAMES}. Use {@link InMemoryDataset#flatten()} for
 * {@code [N, 784]}.
 */
public final class FashionMnist {
    /** Where the Debian package {@code dataset-fashion-mnist} installs the files. */
    public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");

    /** Class names indexed by label. */
    public static final List<String> CLASS_NAMES = List.of("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
            "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot");

    /** Number of classes. */
    public static final int NUM_CLASSES = 10;

    /** Image height and width in pixels. */
    public static final int IMAGE_SIZE = 28;

    /** Shape of one sample's features. */
    public static final Shape FEATURE_SHAPE = Shape.of(IMAGE_SIZE, IMAGE_SIZE, 1);

    private static final String HINT = "install the Debian package dataset-fashion-mnist or pass --data DIR";

    private FashionMnist() {
    }

    /**
     * Loads the training (60000) and test (10000) sets from {@link #DEFAULT_DIR}.
     *
     * @return the training and test sets, pixels scaled to [0, 1]
     * @throws IOException if a file is missing or malformed (the message names it)
     */
    public static TrainTestSplit load() throws IOException {
        return load(DEFAULT_DIR);
    }

    /**
     * Loads the training and test sets from {@code dir}, which holds {@code train-images-idx3-ubyte},
     * {@code train-labels-idx1-ubyte}, {@code t10k-images-idx3-ubyte} and {@code t10k-labels-idx1-ubyte}, each
     * either gzip-compressed with a {@code .gz} suffix (preferred when both exist) or raw.
     *
     * @param dir the directory holding the four files
     * @return the training and test sets, pixels scaled to [0, 1]
     * @throws NoSuchFileException naming the missing directory or file
     * @throws IdxFormatException if a file is malformed, images and labels disagree in count, an image is not
     *     28x28, or a label is outside 0..9
     */
    public static TrainTestSplit load(Path dir) throws IOException {
        return load(dir, 255f);
    }

    /**
     * As {@link #load(Path)}, with pixels divided by {@code pixelDivisor} instead of 255: {@code 1f} keeps the
     * stored [0, 255], for a pipeline that scales them itself.
     *
     * @param dir the directory holding the four files
     * @param pixelDivisor what each pixel is divided by
     * @return the training and test sets
     * @throws IOException if a file is missing or malformed (the message names it)
     */
    public static TrainTestSplit load(Path dir, float pixelDivisor) throws IOException {
        return load(dir, pixelDivisor, null);
    }

    /**
     * As {@link #load(Path, float)}, reading the gzip-compressed files from their unpacked copies in {@code cache}
     * (and making them on the first load) when {@code cache} is not null.
     *
     * @param dir the directory holding the four files
     * @param pixelDivisor what each pixel is divided by
     * @param cache where unpacked copies of the compressed files live, or null to read them directly
     * @return the training and test sets
     * @throws IOException if a file is missing or malformed (the message names it)
     */
    public static TrainTestSplit load(Path dir, float pixelDivisor, UnpackedCache cache) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "Fashion-MNIST directory not found; " + HINT);
        }
        // The test set decompresses on a second thread while this one reads the six times larger training set.
        FutureTask<InMemoryDataset> test = new FutureTask<>(() -> loadPart(dir, "t10k", pixelDivisor, cache));
        Thread.ofPlatform().name("brisk-load-test-set").daemon().start(test);
        InMemoryDataset train;
        try {
            train = loadPart(dir, "train", pixelDivisor, cache);
        } catch (IOException | RuntimeException e) {
            test.cancel(true);
            throw e;
        }
        return new TrainTestSplit(train, awaitTestSet(test));
    }

    private static InMemoryDataset awaitTestSet(FutureTask<InMemoryDataset> test) throws IOException {
        try {
            return test.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while loading the Fashion-MNIST test set");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("loading the Fashion-MNIST test set failed: " + cause, cause);
        }
    }

    private static InMemoryDataset loadPart(Path dir, String prefix, float pixelDivisor, UnpackedCache cache)
            throws IOException {
        Path images = find(dir, prefix + "-images-idx3-ubyte");
        Path labels = find(dir, prefix + "-labels-idx1-ubyte");
        InMemoryDataset raw = IdxDatasets.load(images, labels, pixelDivisor, cache);
        Shape expected = Shape.of(IMAGE_SIZE, IMAGE_SIZE);
        if (!raw.featureShape().equals(expected)) {
            throw new IdxFormatException(images, images + ": images have shape " + raw.featureShape()
                    + " but Fashion-MNIST images are " + expected);
        }
        if (!raw.labelShape().equals(Shape.scalar())) {
            throw new IdxFormatException(labels, labels + ": labels have shape " + raw.labels().shape()
                    + " but Fashion-MNIST labels are (N,)");
        }
        try {
            raw.checkClassLabels(NUM_CLASSES);
        } catch (IllegalArgumentException e) {
            throw new IdxFormatException(labels, labels + ": " + e.getMessage());
        }
        return raw.reshapeFeatures(FEATURE_SHAPE);
    }

    /** {@code dir/name.gz} if present, else {@code dir/name}. */
    private static Path find(Path dir, String name) throws NoSuchFileException {
        Path gz = dir.resolve(name + ".gz");
        if (Files.isRegularFile(gz)) {
            return gz;
        }
        Path plain = dir.resolve(name);
        if (Files.isRegularFile(plain)) {
            return plain;
        }
        throw new NoSuchFileException(gz.toString(), null, "Fashion-MNIST file not found (nor " + plain.getFileName()
                + "); " + HINT);
    }
}
