package dev.brisk.io;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * Reads a {@link WeightsFile} of format version 1 or 2. Every count and size read from the file is checked, against
 * the bytes the file has left and against the largest tensor Brisk can hold, before anything is allocated for it; an
 * error names the file, the tensor and the byte offset. Version 2's checksums are verified per tensor.
 */
final class WeightsFileReader {
    /**
     * The most elements one tensor may have: a Java array holds a little under {@code Integer.MAX_VALUE} elements
     * and Brisk's tensor storage adds {@link Tensor#TAIL_PADDING} spare floats.
     */
    static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8L - Tensor.TAIL_PADDING;
    /** The largest rank the format accepts. */
    static final int MAX_RANK = 8;
    /** The first six bytes of every version's magic, {@code "BRISKW"}. */
    private static final long MAGIC_PREFIX = WeightsFile.MAGIC_V1 >>> 16;
    /** Bytes converted from big-endian floats at a time. */
    private static final int CHUNK_BYTES = 1 << 16;

    private final Path file;
    private final long fileSize;
    private final CountingInputStream counter;
    private final CRC32C crc = new CRC32C();
    private final DataInputStream in;
    /** Whether records end with a checksum (version 2). */
    private boolean checksums;
    private final byte[] chunk = new byte[CHUNK_BYTES];

    private WeightsFileReader(Path file, long fileSize, InputStream raw) {
        this.file = file;
        this.fileSize = fileSize;
        this.counter = new CountingInputStream(raw);
        this.in = new DataInputStream(new CheckedInputStream(counter, crc));
    }

    /** Reads the named tensors of {@code file}, in file order. */
    static Map<String, Tensor> read(Path file) throws IOException {
        long fileSize = Files.size(file);
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            WeightsFileReader reader = new WeightsFileReader(file, fileSize, raw);
            try {
                return reader.readAll();
            } catch (EOFException e) {
                throw new IOException(file + ": truncated at offset " + reader.counter.count(), e);
            }
        }
    }

    private Map<String, Tensor> readAll() throws IOException {
        long magic = in.readLong();
        if (magic == WeightsFile.MAGIC_V2) {
            checksums = true;
        } else if (magic >>> 16 == MAGIC_PREFIX && magic != WeightsFile.MAGIC_V1) {
            throw new IOException(file + ": weights file format '" + magicText(magic)
                    + "' is not one this version of Brisk reads (written by a newer one?)");
        } else if (magic != WeightsFile.MAGIC_V1) {
            throw new IOException(file + ": not a Brisk weights file (bad magic at offset 0)");
        }
        long countOffset = counter.count();
        int count = in.readInt();
        // a record holds at least its name's length and its rank, and in version 2 its checksum
        int minRecordBytes = 2 + 4 + (checksums ? 4 : 0);
        if (count < 0 || count > remaining() / minRecordBytes) {
            throw new IOException(file + ": bad tensor count " + count + " at offset " + countOffset + " (the "
                    + remaining() + " bytes left hold at most " + remaining() / minRecordBytes + ")");
        }
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            long recordOffset = counter.count();
            crc.reset();
            String name = in.readUTF();
            if (out.containsKey(name)) {
                throw new IOException(file + ": tensor '" + name + "' at offset " + recordOffset
                        + " appears twice in the file");
            }
            Tensor t = readTensor(name);
            if (checksums) {
                verifyChecksum(name, recordOffset);
            }
            out.put(name, t);
        }
        if (checksums && in.read() >= 0) {
            throw new IOException(file + ": unexpected bytes after the last of " + count + " tensors at offset "
                    + (counter.count() - 1) + " (damaged file?)");
        }
        return out;
    }

    /** Compares the checksum of the record read since {@code recordOffset} with the one stored after it. */
    private void verifyChecksum(String name, long recordOffset) throws IOException {
        int computed = (int) crc.getValue();
        long checksumOffset = counter.count();
        int stored = in.readInt();
        if (stored != computed) {
            throw new IOException(file + ": tensor '" + name + "' is damaged: the CRC32C of its " + (checksumOffset
                    - recordOffset) + " bytes from offset " + recordOffset + " is " + hex(computed)
                    + ", the file says " + hex(stored) + " (at offset " + checksumOffset + ")");
        }
    }

    private static String hex(int value) {
        return String.format("%08x", value);
    }

    /** The magic as text, for a message: its printable ASCII characters, the others as '?'. */
    private static String magicText(long magic) {
        StringBuilder s = new StringBuilder();
        for (int shift = 56; shift >= 0; shift -= 8) {
            int c = (int) (magic >>> shift) & 0xff;
            s.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
        }
        return s.toString();
    }

    /** The rank, dimensions and values of tensor {@code name}, its name already read. */
    private Tensor readTensor(String name) throws IOException {
        long rankOffset = counter.count();
        int rank = in.readInt();
        if (rank < 0 || rank > MAX_RANK) {
            throw new IOException(file + ": bad rank " + rank + " for '" + name + "' at offset " + rankOffset);
        }
        int[] dims = new int[rank];
        long elements = 1;
        for (int d = 0; d < rank; d++) {
            dims[d] = in.readInt();
            if (dims[d] < 0) {
                throw new IOException(file + ": bad dimension " + dims[d] + " for '" + name + "' at offset "
                        + (counter.count() - 4));
            }
            // each dimension is below 2^31, so saturating above MAX_ELEMENTS never overflows a long
            elements = Math.min(elements * dims[d], MAX_ELEMENTS + 1);
        }
        long dataOffset = counter.count();
        if (elements > MAX_ELEMENTS) {
            throw new IOException(file + ": tensor '" + name + "' at offset " + rankOffset + " has shape "
                    + Arrays.toString(dims) + ", more than the " + MAX_ELEMENTS
                    + " elements a tensor can hold (damaged file?)");
        }
        long needed = elements * Float.BYTES + (checksums ? Integer.BYTES : 0);
        if (needed > remaining()) {
            throw new IOException(file + ": shape " + Arrays.toString(dims) + " of '" + name + "' needs "
                    + needed + " bytes but only " + remaining()
                    + " remain (truncated or damaged) at offset " + dataOffset);
        }
        int size = (int) elements;
        float[] data = Tensor.storage(size);
        readFloats(data, size);
        return Tensor.wrap(data, 0, Shape.of(dims));
    }

    /** Reads {@code size} big-endian floats into {@code data}, a chunk at a time. */
    private void readFloats(float[] data, int size) throws IOException {
        int done = 0;
        while (done < size) {
            int n = Math.min(size - done, CHUNK_BYTES / Float.BYTES);
            in.readFully(chunk, 0, n * Float.BYTES);
            ByteBuffer.wrap(chunk, 0, n * Float.BYTES).asFloatBuffer().get(data, done, n);
            done += n;
        }
    }

    private long remaining() {
        return fileSize - counter.count();
    }
}
