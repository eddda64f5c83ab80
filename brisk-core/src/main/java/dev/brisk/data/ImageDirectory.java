package dev.brisk.data;

import dev.brisk.config.Settings;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A directory of PNG and JPEG images with one sub-folder per class (Keras' {@code image_dataset_from_directory}):
 * class names are the sub-folders' names in sorted order, or an explicit list ({@link #of(Path, List)}, Keras'
 * {@code class_names}), and a sample's label is its class's index. Images are float32
 * {@code (height, width, channels)} in [0, 255]. Held-out data must be opened with the training directory's
 * {@link #classNames()}, or a held-out directory that lacks a class labels the others differently.
 *
 * <pre>{@code
 * ImageDirectory flowers = ImageDirectory.of(Path.of("flowers")).imageSize(64, 64);
 * Pipeline<Batch> train = flowers.files().shuffle(flowers.size(), 1)     // shuffle names, not pixels
 *         .map(flowers::decode, Pipeline.AUTOTUNE)
 *         .map(Sample.features(new RandomFlip(RandomFlip.Mode.HORIZONTAL, 2)))
 *         .batch(32).prefetch(Pipeline.AUTOTUNE);
 * }</pre>
 *
 * <p>Files are listed (recursively, sorted) when the directory is opened; files with other extensions and hidden
 * files are ignored. Without {@link #imageSize} every image must have the size of the first readable one. An image
 * that cannot be decoded, or has another size, is a {@link BadRecordException} naming the file, which
 * {@link Pipeline#ignoreErrors} can skip and count; so is a file whose header declares more pixels than
 * {@link #maxPixels} (default {@code brisk.maxImagePixels}, 2^27), found before its pixels are decoded.
 */
public final class ImageDirectory {
    /** How many channels the images get. */
    public enum ColorMode {
        /** One channel: grey images as stored, colour images as 0.299 R + 0.587 G + 0.114 B. */
        GRAYSCALE(1),
        /** Three channels (grey images repeated); the default. */
        RGB(3),
        /** Four channels; alpha 255 for images without one. */
        RGBA(4);

        private final int channels;

        ColorMode(int channels) {
            this.channels = channels;
        }

        /**
         * Channels per pixel.
         *
         * @return 1 for grayscale, 3 for RGB, 4 for RGBA
         */
        public int channels() {
            return channels;
        }
    }

    /**
     * One image file and its class.
     *
     * @param path the file
     * @param label the index of its class in {@link #classNames()}
     */
    public record ImageFile(Path path, int label) {
    }

    private final Path dir;
    private final List<String> classNames;
    private final List<ImageFile> files;
    /** The image whose size the others must have when not resized. */
    private final Path sizedBy;
    private final int height;
    private final int width;
    private final boolean resize;
    private final ColorMode colorMode;
    private final long maxPixels;

    private ImageDirectory(Path dir, List<String> classNames, List<ImageFile> files, Path sizedBy, int height,
                           int width, boolean resize, ColorMode colorMode, long maxPixels) {
        this.dir = dir;
        this.classNames = classNames;
        this.files = files;
        this.sizedBy = sizedBy;
        this.height = height;
        this.width = width;
        this.resize = resize;
        this.colorMode = colorMode;
        this.maxPixels = maxPixels;
    }

    /**
     * Lists the classes and images under {@code dir}; images keep their size (that of the first image). The
     * classes are the sub-folders in sorted order: to label another directory (held-out data) the same way, open
     * it with {@link #of(Path, List)} and this directory's {@link #classNames()}.
     *
     * @param dir the directory with one sub-folder per class
     * @return the image directory
     * @throws NoSuchFileException if {@code dir} is not a directory
     * @throws DataFormatException if it has no class sub-folder, no image, or no image whose size can be read
     */
    public static ImageDirectory of(Path dir) throws IOException {
        return of(dir, null);
    }

    /**
     * Lists the images under {@code dir} with an explicit class list, as Keras' {@code class_names}: a label is the
     * index of its folder's name in {@code classNames}, whatever folders the directory has. Pass a training
     * directory's {@link #classNames()} when opening its held-out directory, so that both label a class alike even
     * where the held-out directory lacks a class:
     *
     * <pre>{@code
     * ImageDirectory train = ImageDirectory.of(Path.of("train"));
     * ImageDirectory test = ImageDirectory.of(Path.of("test"), train.classNames());
     * }</pre>
     *
     * <p>Every sub-folder must be named in {@code classNames} (Keras refuses a mismatch too); a listed class without
     * a folder has no images here (Keras would refuse it, which makes a held-out directory without some class
     * unusable). Files are listed class by class in the list's order.
     *
     * @param dir the directory with one sub-folder per class
     * @param classNames the classes in label order, no name twice; null for the sub-folders in sorted order
     * @return the images of {@code dir}, labelled by their folder's index in the class list
     * @throws NoSuchFileException if {@code dir} is not a directory
     * @throws DataFormatException if it has no class sub-folder, a sub-folder not in {@code classNames}, no image, or
     *     no image whose size can be read
     * @throws IllegalArgumentException if {@code classNames} is empty or names a class twice
     */
    public static ImageDirectory of(Path dir, List<String> classNames) throws IOException {
        long maxPixels = Settings.maxImagePixels();
        if (classNames != null && (classNames.isEmpty() || new HashSet<>(classNames).size() != classNames.size())) {
            throw new IllegalArgumentException("classNames must be a non-empty list without repeats, got "
                    + classNames);
        }
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "image directory not found");
        }
        List<String> folders;
        try (Stream<Path> s = Files.list(dir)) {
            folders = s.filter(Files::isDirectory).filter(p -> !hidden(p)).map(p -> p.getFileName().toString())
                    .sorted().toList();
        }
        if (folders.isEmpty()) {
            throw new DataFormatException(dir, dir + ": no class sub-folders (expected one folder of images per "
                    + "class)");
        }
        List<String> names = classNames == null ? folders : List.copyOf(classNames);
        List<String> unknown = folders.stream().filter(f -> !names.contains(f)).toList();
        if (!unknown.isEmpty()) {
            throw new DataFormatException(dir, dir + ": the sub-folders " + unknown + " are not in classNames "
                    + names + "; every class folder must be one of the classes given");
        }
        List<ImageFile> files = new ArrayList<>();
        for (int label = 0; label < names.size(); label++) {
            Path c = dir.resolve(names.get(label));
            if (!folders.contains(names.get(label))) {
                continue; // a class this directory has no folder for: no images, labels unchanged
            }
            int classLabel = label;
            try (Stream<Path> s = Files.walk(c)) {
                s.filter(Files::isRegularFile).filter(ImageDirectory::isImage).sorted()
                        .forEach(p -> files.add(new ImageFile(p, classLabel)));
            }
        }
        if (files.isEmpty()) {
            throw new DataFormatException(dir, dir + ": no .png, .jpg or .jpeg files in the class folders " + names);
        }
        int[] size = null;
        Path first = null;
        String firstProblem = null;
        for (int i = 0; i < files.size() && size == null; i++) {
            try {
                first = files.get(i).path();
                size = ImageDecoder.size(first, maxPixels);
            } catch (IOException | BadRecordException e) {
                firstProblem = firstProblem != null ? firstProblem : e.getMessage();
            }
        }
        if (size == null) {
            throw new DataFormatException(dir, dir + ": none of the " + files.size() + " images is readable (the "
                    + "first: " + firstProblem + ")");
        }
        return new ImageDirectory(dir, List.copyOf(names), List.copyOf(files), first, size[0], size[1], false,
                ColorMode.RGB, maxPixels);
    }

    private static boolean hidden(Path p) {
        return p.getFileName().toString().startsWith(".");
    }

    private static boolean isImage(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return !hidden(p) && (name.endsWith(".png") || name.endsWith(".jpg") || name.endsWith(".jpeg"));
    }

    /**
     * The same images resized (bilinearly) to {@code height} x {@code width}.
     *
     * @param newHeight the height in pixels
     * @param newWidth the width in pixels
     * @return the resized view
     */
    public ImageDirectory imageSize(int newHeight, int newWidth) {
        if (newHeight < 1 || newWidth < 1) {
            throw new IllegalArgumentException("image size must be positive, got " + newHeight + "x" + newWidth);
        }
        if ((long) newHeight * newWidth * ColorMode.RGBA.channels() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("image size " + newHeight + "x" + newWidth + " is too large for one "
                    + "tensor");
        }
        return new ImageDirectory(dir, classNames, files, sizedBy, newHeight, newWidth, true, colorMode, maxPixels);
    }

    /**
     * The same images with {@code mode}'s channels.
     *
     * @param mode the color mode
     * @return the view in that mode
     */
    public ImageDirectory colorMode(ColorMode mode) {
        return new ImageDirectory(dir, classNames, files, sizedBy, height, width, resize, mode, maxPixels);
    }

    /**
     * The same images, with at most {@code pixels} pixels (width x height) declared by a file (default
     * {@code brisk.maxImagePixels}, 2^27): a file whose header declares more is a {@link BadRecordException} naming
     * it, found before any pixel is decoded, which {@link Pipeline#ignoreErrors} can skip.
     *
     * @param pixels the largest width x height accepted
     * @return a copy with that limit
     */
    public ImageDirectory maxPixels(long pixels) {
        if (pixels < 1) {
            throw new IllegalArgumentException("maxPixels must be positive, got " + pixels);
        }
        return new ImageDirectory(dir, classNames, files, sizedBy, height, width, resize, colorMode, pixels);
    }

    /**
     * The class names: the sub-folder names sorted, or the list given to {@link #of(Path, List)}; a label is an
     * index into this list. Pass it to {@link #of(Path, List)} to label another directory the same way.
     *
     * @return the class names
     */
    public List<String> classNames() {
        return classNames;
    }

    /**
     * The number of images.
     *
     * @return the image count
     */
    public int size() {
        return files.size();
    }

    /**
     * The image files and their labels, in sorted order: shuffle these, then map {@link #decode}.
     *
     * @return the pipeline of image files
     */
    public Pipeline<ImageFile> files() {
        return Pipeline.fromList(files).labelledBy(classNames);
    }

    /**
     * The decoded samples in sorted order, decoded on AUTOTUNE's workers.
     *
     * @return the pipeline of samples
     */
    public Pipeline<Sample> pipeline() {
        return files().map(this::decode, Pipeline.AUTOTUNE);
    }

    /**
     * One decoded sample: features {@code (height, width, channels)}, label the class index.
     *
     * @param file the image file
     * @return the sample
     * @throws BadRecordException if the file cannot be decoded or (without {@link #imageSize}) has another size
     */
    public Sample decode(ImageFile file) {
        Tensor image = ImageDecoder.decode(file.path(), colorMode.channels(), maxPixels);
        int h = image.shape().dim(0);
        int w = image.shape().dim(1);
        if (resize) {
            image = ImageDecoder.resize(image, height, width);
        } else if (h != height || w != width) {
            throw new BadRecordException(file.path(), -1, file.path() + ": the image is " + h + "x" + w
                    + " (height x width) but the first image (" + sizedBy.getFileName() + ") is "
                    + height + "x" + width + "; set imageSize(height, width) to resize them all");
        }
        return new Sample(image, Tensor.scalar(file.label()));
    }
}
