package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Decodes PNG and JPEG files (javax.imageio) into float32 {@code (height, width, channels)} tensors with values in
 * [0, 255], and resizes them bilinearly. A file that cannot be decoded cleanly, including one the decoder only
 * warns about (a truncated JPEG is otherwise filled with grey), is a {@link BadRecordException} naming it; so is
 * one whose header declares more pixels than the limit, found from the header before any pixel is decoded (a
 * file of a few hundred kilobytes can declare 30000 x 30000 pixels, which the decoder would try to allocate).
 */
final class ImageDecoder {
    private ImageDecoder() {
    }

    /** Largest float array: no image of more values than this can be one tensor. */
    private static final long MAX_VALUES = Integer.MAX_VALUE - 8;

    /**
     * The height and width in the file's header, without decoding the pixels.
     *
     * @throws BadRecordException if the header declares more than {@code maxPixels} pixels
     */
    static int[] size(Path file, long maxPixels) throws IOException {
        try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
            ImageReader reader = readerFor(in, file);
            try {
                reader.setInput(in, true, true);
                return checkedSize(reader, file, maxPixels, 1);
            } finally {
                reader.dispose();
            }
        }
    }

    /**
     * The height and width the header declares, refused where they exceed {@code maxPixels} or would not fit one
     * array of {@code channels} values per pixel.
     */
    private static int[] checkedSize(ImageReader reader, Path file, long maxPixels, int channels)
            throws IOException {
        int h = reader.getHeight(0);
        int w = reader.getWidth(0);
        long pixels = (long) h * w;
        if (pixels > maxPixels || pixels * channels > MAX_VALUES) {
            throw new BadRecordException(file, -1, file + ": the image declares " + w + "x" + h + " pixels (width "
                    + "x height), " + pixels + " in all, over the limit of " + Math.min(maxPixels,
                    MAX_VALUES / channels) + " (brisk.maxImagePixels, or ImageDirectory.maxPixels)");
        }
        return new int[] {h, w};
    }

    /**
     * The pixels of {@code file} with {@code channels} channels (1 grey, 3 RGB, 4 RGBA).
     *
     * @throws BadRecordException if the file cannot be decoded, or its header declares more than {@code maxPixels}
     *     pixels (checked before decoding)
     */
    static Tensor decode(Path file, int channels, long maxPixels) {
        BufferedImage image;
        List<String> warnings = new ArrayList<>();
        try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
            if (in == null) {
                throw new BadRecordException(file, -1, file + ": cannot open the image");
            }
            ImageReader reader = readerFor(in, file);
            try {
                reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
                reader.setInput(in, true, true);
                checkedSize(reader, file, maxPixels, channels);
                image = reader.read(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadRecordException bad) {
                throw bad;
            }
            throw new BadRecordException(file, -1, file + ": cannot decode the image (" + e.getMessage() + ")", e);
        }
        if (!warnings.isEmpty()) {
            throw new BadRecordException(file, -1, file + ": the image is damaged (" + String.join("; ", warnings)
                    + ")");
        }
        return pixels(image, channels);
    }

    private static ImageReader readerFor(ImageInputStream in, Path file) {
        Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
        if (readers == null || !readers.hasNext()) {
            throw new BadRecordException(file, -1, file + ": not a PNG or JPEG image (no decoder recognises it)");
        }
        return readers.next();
    }

    private static Tensor pixels(BufferedImage image, int channels) {
        int h = image.getHeight();
        int w = image.getWidth();
        float[] out = new float[h * w * channels];
        Raster raster = image.getRaster();
        boolean grey = raster.getNumBands() == 1 && image.getColorModel().getNumComponents() == 1
                && image.getColorModel().getColorSpace().getType() == java.awt.color.ColorSpace.TYPE_GRAY;
        // Grey samples are read raw: getRGB would pass them through a gamma conversion and change them.
        float greyScale = grey ? 255f / ((1 << image.getColorModel().getComponentSize(0)) - 1) : 1f;
        int[] sample = new int[1];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int o = (y * w + x) * channels;
                float r;
                float g;
                float b;
                float a = 255f;
                if (grey) {
                    r = g = b = raster.getPixel(x, y, sample)[0] * greyScale;
                } else {
                    int argb = image.getRGB(x, y);
                    a = argb >>> 24;
                    r = (argb >> 16) & 0xFF;
                    g = (argb >> 8) & 0xFF;
                    b = argb & 0xFF;
                }
                if (channels == 1) {
                    out[o] = grey ? r : 0.299f * r + 0.587f * g + 0.114f * b;
                } else {
                    out[o] = r;
                    out[o + 1] = g;
                    out[o + 2] = b;
                    if (channels == 4) {
                        out[o + 3] = a;
                    }
                }
            }
        }
        return Tensor.wrap(out, 0, Shape.of(h, w, channels));
    }

    /**
     * Bilinear resize of an {@code (h, w, c)} image with half-pixel centres and edge clamping, as
     * {@code tf.image.resize} (bilinear, no antialiasing) does.
     */
    static Tensor resize(Tensor image, int outH, int outW) {
        int inH = image.shape().dim(0);
        int inW = image.shape().dim(1);
        int c = image.shape().dim(2);
        if (inH == outH && inW == outW) {
            return image;
        }
        float[] src = image.data();
        int base = image.offset();
        float[] out = new float[outH * outW * c];
        for (int y = 0; y < outH; y++) {
            double fy = (y + 0.5) * inH / outH - 0.5;
            int y0 = Math.max((int) Math.floor(fy), 0);
            int y1 = Math.min((int) Math.ceil(fy), inH - 1);
            float ly = (float) (fy - Math.floor(fy));
            for (int x = 0; x < outW; x++) {
                double fx = (x + 0.5) * inW / outW - 0.5;
                int x0 = Math.max((int) Math.floor(fx), 0);
                int x1 = Math.min((int) Math.ceil(fx), inW - 1);
                float lx = (float) (fx - Math.floor(fx));
                for (int k = 0; k < c; k++) {
                    float top = lerp(src[base + (y0 * inW + x0) * c + k], src[base + (y0 * inW + x1) * c + k], lx);
                    float bottom = lerp(src[base + (y1 * inW + x0) * c + k], src[base + (y1 * inW + x1) * c + k], lx);
                    out[(y * outW + x) * c + k] = lerp(top, bottom, ly);
                }
            }
        }
        return Tensor.wrap(out, 0, Shape.of(outH, outW, c));
    }

    private static float lerp(float a, float b, float t) {
        return a + (b - a) * t;
    }
}
