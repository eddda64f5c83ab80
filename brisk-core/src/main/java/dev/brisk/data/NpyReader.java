package dev.brisk.data;

import dev.brisk.io.CountingInputStream;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads NumPy {@code .npy} files (format versions 1 to 3) into float32 tensors.
 *
 * <p>Supported element types, in either byte order: float32 ({@code <f4}), float64 ({@code <f8}), uint8
 * ({@code |u1}), int32 ({@code <i4}) and int64 ({@code <i8}); arrays must be in C (row-major) order. Values that
 * float32 cannot hold exactly are refused rather than changed: integers beyond 2^24 in magnitude and finite
 * float64 values beyond float32's range (float64 values are otherwise rounded to the nearest float32, as Keras
 * casts them). Every error is a {@link DataFormatException} naming the file and the byte offset.
 */
public final class NpyReader {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;
    private static final long EXACT_INT = 1L << 24;
    private static final String SUPPORTED = "float32 (<f4), float64 (<f8), uint8 (|u1), int32 (<i4) and int64 (<i8)"
            + ", little- or big-endian";

    /** The element types this reader takes. */
    private enum Kind {
        F4(4), F8(8), U1(1), I4(4), I8(8);

        final int size;

        Kind(int size) {
            this.size = size;
        }
    }

    private NpyReader() {
    }

    /**
     * Reads the array in {@code file}.
     *
     * @param file the {@code .npy} file
     * @return the array as a float32 tensor
     * @throws IOException if the file cannot be read or is malformed (the message names the file and offset)
     */
    public static Tensor read(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file)) {
            CountingInputStream in = new CountingInputStream(new BufferedInputStream(raw, 1 << 16));
            return read(in, file, Files.size(file));
        }
    }

    private static Tensor read(CountingInputStream in, Path file, long fileLength) throws IOException {
        byte[] start = readFully(in, file, 8, "the 6-byte magic string and 2-byte version");
        if (!Arrays.equals(Arrays.copyOf(start, 6), MAGIC)) {
            throw new DataFormatException(file, 0, "not an NPY file: the first bytes are not \\x93NUMPY");
        }
        int major = start[6] & 0xFF;
        int headerLength;
        if (major == 1) {
            byte[] b = readFully(in, file, 2, "the 2-byte header length");
            headerLength = (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
        } else if (major == 2 || major == 3) {
            byte[] b = readFully(in, file, 4, "the 4-byte header length");
            headerLength = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if (headerLength < 0) {
                throw new DataFormatException(file, 8, "header length " + Integer.toUnsignedString(headerLength)
                        + " at offset 8 is too large");
            }
        } else {
            throw new DataFormatException(file, 6, "unsupported NPY format version " + major + "." + (start[7] & 0xFF)
                    + " at offset 6; supported: 1.x, 2.x and 3.x");
        }
        long headerOffset = in.count();
        Charset headerCharset = major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
        String header = new String(readFully(in, file, headerLength, "a header of " + headerLength + " bytes"),
                headerCharset);
        NpyHeader parsed = NpyHeader.parse(header, headerCharset, file, headerOffset);
        String descr = parsed.descr();
        if (descr == null) {
            throw new DataFormatException(file, headerOffset, "the header at offset " + headerOffset + " has no "
                    + "readable 'descr' entry (structured dtypes are not supported): " + shortened(header.strip()));
        }
        Kind kind;
        if (descr.length() != 3 || "<>|=".indexOf(descr.charAt(0)) < 0) {
            throw unsupported(file, headerOffset, descr);
        }
        try {
            kind = Kind.valueOf(descr.substring(1).toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw unsupported(file, headerOffset, descr);
        }
        ByteOrder order = descr.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        if (parsed.fortranOrder()) {
            throw new DataFormatException(file, headerOffset, "Fortran-order (column-major) arrays are not "
                    + "supported (header at offset " + headerOffset + "); save a C-order array, e.g. "
                    + "np.save(path, np.ascontiguousarray(a))");
        }
        long[] claimed = parsed.shape();
        long count = 1;
        for (long d : claimed) {
            // Saturates: both factors are at most 2^31, so the product cannot overflow.
            count = Math.min(count * Math.min(d, MAX_ELEMENTS + 1), MAX_ELEMENTS + 1);
        }
        if (count > MAX_ELEMENTS || Arrays.stream(claimed).anyMatch(d -> d > MAX_ELEMENTS)) {
            throw new DataFormatException(file, headerOffset, "shape " + Arrays.toString(claimed)
                    + " has too many elements to load into one Java array");
        }
        int[] dims = new int[claimed.length];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = (int) claimed[i];
        }
        // The header's size is checked against the file before the array is allocated: a few bytes claiming
        // (1e9,) must not cost gigabytes of memory before the truncation is found.
        long dataOffset = in.count();
        long expected = count * kind.size;
        long found = Math.max(0, fileLength - dataOffset);
        if (found < expected) {
            long at = dataOffset + found;
            throw new DataFormatException(file, at, "truncated at offset " + at + ": the header's shape "
                    + Arrays.toString(claimed) + " of " + descr + " needs " + expected + " bytes of data after the "
                    + "header (offset " + dataOffset + "), found " + found + " (the file has " + fileLength
                    + " bytes)");
        }
        float[] values = new float[(int) count];
        decode(in, file, kind, order, values, Shape.of(dims));
        if (in.read() != -1) {
            long extra = 1 + in.transferTo(OutputStream.nullOutputStream());
            long end = in.count() - extra;
            throw new DataFormatException(file, end, extra + " unexpected trailing byte(s) at offset " + end
                    + ": the header describes exactly " + count + " elements of " + descr);
        }
        return Tensor.wrap(values, 0, Shape.of(dims));
    }

    /** {@code text} for a message: at most its first 80 characters, so that a huge header makes no huge message. */
    private static String shortened(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    private static DataFormatException unsupported(Path file, long offset, String descr) {
        return new DataFormatException(file, offset, "unsupported dtype '" + shortened(descr)
                + "' in the header at offset " + offset + "; supported: " + SUPPORTED);
    }

    /** Reads the elements in blocks, converting each to float32 and refusing values float32 cannot hold. */
    private static void decode(CountingInputStream in, Path file, Kind kind, ByteOrder order, float[] out,
                               Shape shape) throws IOException {
        long dataOffset = in.count();
        int perBlock = (1 << 16) / kind.size;
        byte[] block = new byte[perBlock * kind.size];
        for (int first = 0; first < out.length; first += perBlock) {
            int n = Math.min(perBlock, out.length - first);
            int got = in.readNBytes(block, 0, n * kind.size);
            if (got < n * kind.size) {
                long at = in.count();
                throw new DataFormatException(file, at, "truncated at offset " + at + ": expected "
                        + (long) out.length * kind.size + " bytes of data after the header (offset " + dataOffset
                        + "), found " + (at - dataOffset));
            }
            ByteBuffer b = ByteBuffer.wrap(block, 0, n * kind.size).order(order);
            for (int i = 0; i < n; i++) {
                out[first + i] = value(b, kind, file, dataOffset, first + i, shape);
            }
        }
    }

    private static float value(ByteBuffer b, Kind kind, Path file, long dataOffset, int index, Shape shape)
            throws DataFormatException {
        switch (kind) {
            case F4:
                return b.getFloat();
            case U1:
                return b.get() & 0xFF;
            case F8: {
                double d = b.getDouble();
                float f = (float) d;
                if (Float.isInfinite(f) && !Double.isInfinite(d)) {
                    throw inexact(file, dataOffset, index, shape, kind, Double.toString(d), "is beyond float32's range");
                }
                return f;
            }
            default: {
                long v = kind == Kind.I4 ? b.getInt() : b.getLong();
                if (Math.abs(v) > EXACT_INT) {
                    throw inexact(file, dataOffset, index, shape, kind, Long.toString(v),
                            "cannot be represented exactly as float32 (integers up to 2^24 can)");
                }
                return v;
            }
        }
    }

    private static DataFormatException inexact(Path file, long dataOffset, int index, Shape shape, Kind kind,
                                               String value, String why) {
        long at = dataOffset + (long) index * kind.size;
        return new DataFormatException(file, at, "value " + value + " of element " + index + " " + position(index,
                shape) + " at offset " + at + " " + why);
    }

    /** The multi-dimensional index of flat element {@code index}, as "(i, j)". */
    private static String position(int index, Shape shape) {
        int[] strides = shape.strides();
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < strides.length; i++) {
            sb.append(i > 0 ? ", " : "").append(index / strides[i]);
            index %= strides[i];
        }
        return sb.append(')').toString();
    }

    private static byte[] readFully(CountingInputStream in, Path file, int length, String what) throws IOException {
        long offset = in.count();
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            long at = offset + bytes.length;
            throw new DataFormatException(file, at, "truncated at offset " + at + ": expected " + what + " at offset "
                    + offset + ", found " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }
}
