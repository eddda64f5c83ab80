package dev.brisk.data;

import dev.brisk.io.CountingInputStream;
import dev.brisk.tensor.Shape;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads IDX files, the format of MNIST and Fashion-MNIST, raw or gzip-compressed.
 *
 * <p>Layout: two zero bytes, a type byte ({@link IdxType}), a rank byte, {@code rank} big-endian int32 dimensions,
 * then the elements big-endian in row-major order. Compression is detected from the gzip magic bytes
 * {@code 1f 8b}, not from the file name. Every error is an {@link IdxFormatException} naming the file and the
 * byte offset in the uncompressed stream.
 */
public final class IdxReader {
    private static final int GZIP_MAGIC_0 = 0x1f;
    private static final int GZIP_MAGIC_1 = 0x8b;
    /** Largest element count (and data byte count) that fits one Java array. */
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;
    /**
     * Data sizes up to this are read into one array allocated up front (no chunk list, no final copy), where the
     * stream's known length confirms the header's sizes.
     */
    private static final int PRESIZED_READ_LIMIT = 256 << 20;
    /**
     * Data sizes from this up are read on a background thread while this one allocates and decodes (Fashion-MNIST's
     * image files are 7.8 and 47 MB); below it a thread costs more than it saves.
     */
    private static final long BACKGROUND_READ_MIN = 4 << 20;
    /**
     * Data sizes up to this are read in the background. That path allocates the float array before the data has
     * arrived, so it is taken only where the stream's known length confirms the header's sizes (a gzip trailer
     * that lies costs up to 4 x this); larger sizes are read first and checked, and only then decoded.
     */
    private static final long BACKGROUND_READ_MAX = 64 << 20;

    private IdxReader() {
    }

    /**
     * Reads the IDX file at {@code file}, gzip-compressed or raw.
     *
     * @param file the file
     * @return the array
     * @throws IOException if the file cannot be read or is malformed (the message names the file and offset)
     */
    public static IdxArray read(Path file) throws IOException {
        return read(file, 1f);
    }

    /**
     * Reads the IDX file at {@code file}, gzip-compressed or raw, with every value divided by {@code divisor} as it
     * is decoded ({@code 255f} scales pixels to [0, 1]); bit-identical to reading and then dividing, in one pass.
     *
     * @param file the file
     * @param divisor what each value is divided by
     * @return the array
     * @throws IOException if the file cannot be read or is malformed (the message names the file and offset)
     */
    public static IdxArray read(Path file, float divisor) throws IOException {
        return read(file, divisor, null);
    }

    /**
     * As {@link #read(Path, float)}; when the file is gzip-compressed and {@code unpacked} is not null, the
     * uncompressed bytes also go to {@code unpacked} as they are read (a failing {@code unpacked} is dropped
     * without failing the read).
     */
    static IdxArray read(Path file, float divisor, OutputStream unpacked) throws IOException {
        return readContents(file, divisor, unpacked, false).toArray();
    }

    /**
     * As {@link #read(Path, float, OutputStream)}; with {@code keepBytes}, a file of unsigned bytes keeps them
     * undecoded in {@link Contents#bytes()} (to be divided by {@code divisor} later, see {@link BytePixels}).
     */
    static Contents readContents(Path file, float divisor, OutputStream unpacked, boolean keepBytes)
            throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file, divisor, unpacked, keepBytes, Files.size(file), gzipTrailerSize(file));
        }
    }

    /**
     * Reads an IDX stream, gzip-compressed or raw; {@code source} only names it in errors. The stream is read to
     * its end but not closed.
     *
     * @param in the stream
     * @param source the name used in errors
     * @return the array
     * @throws IOException if the stream cannot be read or is malformed
     */
    public static IdxArray read(InputStream in, Path source) throws IOException {
        return read(in, source, 1f);
    }

    /**
     * As {@link #read(InputStream, Path)}, with every value divided by {@code divisor} as it is decoded.
     *
     * @param in the stream
     * @param source the name used in errors
     * @param divisor what each value is divided by
     * @return the array
     * @throws IOException if the stream cannot be read or is malformed
     */
    public static IdxArray read(InputStream in, Path source, float divisor) throws IOException {
        return read(in, source, divisor, -1, -1);
    }

    /**
     * As {@link #read(InputStream, Path, float)}, for a stream whose length is known: {@code rawLength} if it is not
     * compressed, {@code gzipLength} (uncompressed) if it is; -1 where unknown.
     */
    static IdxArray read(InputStream in, Path source, float divisor, long rawLength, long gzipLength)
            throws IOException {
        return read(in, source, divisor, null, false, rawLength, gzipLength).toArray();
    }

    /**
     * Reads an IDX stream. The header's sizes are trusted before the data has been read only as far as the stream's
     * known length confirms them: {@code rawLength} if it is not compressed, {@code gzipLength} (uncompressed) if it
     * is, -1 where unknown.
     */
    private static Contents read(InputStream in, Path source, float divisor, OutputStream unpacked,
                                 boolean keepBytes, long rawLength, long gzipLength) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
        if (!isGzip(buffered)) {
            return readUncompressed(buffered, source, divisor, keepBytes, rawLength);
        }
        CountingInputStream inflated;
        try {
            inflated = new CountingInputStream(new GZIPInputStream(buffered, 1 << 16));
        } catch (ZipException | EOFException e) {
            throw new IdxFormatException(source, 0, "corrupt gzip header at offset 0 of the compressed file ("
                    + e.getMessage() + ")");
        }
        try {
            InputStream body = unpacked == null ? inflated : new TeeInputStream(inflated, unpacked);
            return readUncompressed(new BufferedInputStream(body, 1 << 16), source, divisor, keepBytes, gzipLength);
        } catch (ZipException | EOFException e) {
            throw new IdxFormatException(source, inflated.count(), "truncated or corrupt gzip data after "
                    + inflated.count() + " uncompressed bytes, at offset " + inflated.count() + " (" + e.getMessage()
                    + ")");
        }
    }

    /**
     * The uncompressed size a gzip file's trailer states (ISIZE, the size modulo 2^32 of its last member), or -1
     * when the file is too short to have one. Only a hint, used to choose how to read: a wrong one costs speed or
     * memory up to what the header claims, never a wrong result, since the data is still read and counted.
     */
    private static long gzipTrailerSize(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = channel.size();
            if (length < 18) { // a gzip member has a 10-byte header and an 8-byte trailer
                return -1;
            }
            ByteBuffer trailer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            while (trailer.hasRemaining() && channel.read(trailer, length - 4 + trailer.position()) > 0) {
                // reads the 4 bytes, in more than one call only on an unusual file system
            }
            return trailer.hasRemaining() ? -1 : Integer.toUnsignedLong(trailer.getInt(0));
        }
    }

    /** Peeks at the first two bytes without consuming them. */
    private static boolean isGzip(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == GZIP_MAGIC_0 && b1 == GZIP_MAGIC_1;
    }

    /**
     * Reads the header and data. {@code knownSize} is the stream's length where it is known (the file's length,
     * or its gzip trailer's), else -1.
     */
    private static Contents readUncompressed(InputStream in, Path source, float divisor, boolean keepBytes,
                                             long knownSize) throws IOException {
        byte[] magic = readHeader(in, source, 0, 4, "a 4-byte magic number");
        int magicValue = ((magic[0] & 0xFF) << 24) | ((magic[1] & 0xFF) << 16) | ((magic[2] & 0xFF) << 8)
                | (magic[3] & 0xFF);
        if (magic[0] != 0 || magic[1] != 0) {
            throw new IdxFormatException(source, 0, String.format(
                    "bad magic number 0x%08X at offset 0, expected an IDX file (0x000008xx)", magicValue));
        }
        IdxType type = IdxType.fromCode(magic[2] & 0xFF);
        if (type == null) {
            throw new IdxFormatException(source, 2, String.format(
                    "unsupported IDX data type 0x%02X at offset 2 (magic number 0x%08X); supported: %s",
                    magic[2] & 0xFF, magicValue, IdxType.supportedCodes()));
        }
        int rank = magic[3] & 0xFF;
        byte[] dimBytes = readHeader(in, source, 4, 4 * rank, rank + " big-endian int32 dimensions");
        int[] dims = new int[rank];
        long count = 1;
        for (int i = 0; i < rank; i++) {
            int o = 4 * i;
            dims[i] = ((dimBytes[o] & 0xFF) << 24) | ((dimBytes[o + 1] & 0xFF) << 16)
                    | ((dimBytes[o + 2] & 0xFF) << 8) | (dimBytes[o + 3] & 0xFF);
            if (dims[i] < 0) {
                throw new IdxFormatException(source, 4 + o, "negative dimension " + dims[i] + " at offset "
                        + (4 + o) + " (dimension " + i + " of " + rank + ")");
            }
            count = Math.min(count * dims[i], MAX_ELEMENTS + 1); // saturates: no long overflow at any rank
        }
        long headerSize = 4 + 4L * rank;
        long dataBytes = count * type.byteSize();
        if (count > MAX_ELEMENTS || dataBytes > MAX_ELEMENTS) {
            throw new IdxFormatException(source, 4, "dimensions " + Arrays.toString(dims) + " at offset 4 describe "
                    + (count > MAX_ELEMENTS ? "more than " + MAX_ELEMENTS : count) + " elements of type "
                    + type.name().toLowerCase() + ", too many to load into one Java array");
        }
        float[] values = null;
        byte[] bytes = null;
        long read;
        if (knownSize < headerSize + dataBytes) {
            // The header's sizes are not confirmed by the stream's known length (or nothing is known of it): the
            // data is read first, in chunks that grow with what arrives, and only then decoded, so that a few
            // bytes claiming 300,000 images cost no more memory than the bytes there are.
            byte[] raw = in.readNBytes((int) dataBytes);
            read = raw.length;
            if (read == dataBytes && keepBytes && type == IdxType.UBYTE) {
                bytes = raw;
            } else if (read == dataBytes) {
                values = new float[(int) count];
                type.decode(raw, values, divisor);
            }
        } else if (keepBytes && type == IdxType.UBYTE) {
            // Nothing to decode, so nothing to overlap with the read.
            bytes = readData(in, (int) dataBytes);
            read = bytes.length;
        } else if (dataBytes >= BACKGROUND_READ_MIN && dataBytes <= BACKGROUND_READ_MAX) {
            BackgroundRead background = BackgroundRead.start(in, dataBytes, "brisk-idx-read");
            try {
                values = decodeWhileReading(background, type, (int) count, divisor);
            } catch (IOException | RuntimeException | Error e) {
                background.abandon(e); // stops and joins the reader before this thread touches the stream again
                throw e;
            }
            read = background.finish();
        } else {
            byte[] raw = readData(in, (int) dataBytes);
            read = raw.length;
            if (read == dataBytes) { // a header that promises more than the file holds costs no float array
                values = new float[(int) count];
                type.decode(raw, values, divisor);
            }
        }
        if (read < dataBytes) {
            throw new IdxFormatException(source, headerSize + read, "truncated at offset "
                    + (headerSize + read) + ": expected " + dataBytes + " bytes of data after the header, found "
                    + read);
        }
        if (in.read() != -1) {
            long extra = 1 + in.transferTo(OutputStream.nullOutputStream());
            throw new IdxFormatException(source, headerSize + dataBytes, extra + " unexpected trailing byte(s) at "
                    + "offset " + (headerSize + dataBytes) + ": the header " + Arrays.toString(dims) + " of type "
                    + type.name().toLowerCase() + " describes exactly " + dataBytes + " bytes of data");
        }
        return new Contents(source, type, Shape.of(dims), values, bytes, divisor);
    }

    /**
     * An IDX file's contents: its values decoded to floats and divided by {@code divisor}, or (an unsigned-byte
     * file read with {@code keepBytes}) its bytes as stored, still to be divided.
     */
    record Contents(Path source, IdxType type, Shape shape, float[] values, byte[] bytes, float divisor) {
        /** The decoded form (decoding the bytes now, if that is how they were kept). */
        IdxArray toArray() {
            if (values != null) {
                return new IdxArray(source, type, shape, values);
            }
            float[] decoded = new float[bytes.length];
            type.decode(bytes, decoded, divisor);
            return new IdxArray(source, type, shape, decoded);
        }

        /** The same contents, naming {@code file} in errors. */
        Contents from(Path file) {
            return new Contents(file, type, shape, values, bytes, divisor);
        }
    }

    /**
     * Allocates the values while {@code background} reads the first bytes, then decodes each chunk as it arrives.
     * Stops early if the read ends short; the caller reports that.
     */
    private static float[] decodeWhileReading(BackgroundRead background, IdxType type, int count, float divisor)
            throws IOException {
        float[] values = new float[count];
        int size = type.byteSize();
        int decoded = 0;
        for (BackgroundRead.Chunk chunk = background.next(); chunk != null; chunk = background.next()) {
            int elements = Math.min(chunk.length() / size, count - decoded);
            type.decode(chunk.data(), 0, values, decoded, elements, divisor);
            decoded += elements;
            background.release(chunk);
        }
        return values;
    }

    /**
     * Up to {@code length} bytes, fewer only at the end of the stream; sizes above {@link #PRESIZED_READ_LIMIT} are
     * read in growing chunks.
     */
    private static byte[] readData(InputStream in, int length) throws IOException {
        if (length > PRESIZED_READ_LIMIT) {
            return in.readNBytes(length);
        }
        byte[] data = new byte[length];
        int n = in.readNBytes(data, 0, length);
        return n == length ? data : Arrays.copyOf(data, n);
    }

    private static byte[] readHeader(InputStream in, Path source, long offset, int length, String what)
            throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            long at = offset + bytes.length;
            throw new IdxFormatException(source, at, "truncated at offset " + at + ": expected " + what
                    + " in the header at offset " + offset + ", found " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }
}
