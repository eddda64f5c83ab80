package dev.brisk.io;

import dev.brisk.tensor.Tensor;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * Brisk's weights file. All numbers are big-endian.
 *
 * <p>Version 2, which {@link #save} writes: the magic {@code BRISKW02}, the tensor count (int), then per tensor a
 * record: its name ({@link java.io.DataOutput#writeUTF modified UTF-8} with a 2-byte length), its rank (int), its
 * dimensions (an int each), its float32 values in row-major order, and a CRC32C (int) of the record's bytes from the
 * name to the last value. Nothing follows the last record.
 *
 * <p>Version 1 ({@code BRISKW01}) is the same without the checksums; {@link #load} reads it as before.
 *
 * <p>Files are written atomically ({@link AtomicFiles}). Reading checks every size against the file's length and
 * the largest tensor Brisk can hold before allocating anything, and each tensor's checksum; damage is an
 * {@link IOException} that names the file, the tensor and the byte offset.
 */
public final class WeightsFile {
    /** {@code "BRISKW01"}: the format without checksums. */
    static final long MAGIC_V1 = 0x425249534b573031L;
    /** {@code "BRISKW02"}: each tensor record ends with a CRC32C of its bytes. */
    static final long MAGIC_V2 = 0x425249534b573032L;
    /** Bytes converted to big-endian floats at a time. */
    private static final int CHUNK_BYTES = 1 << 16;

    private WeightsFile() {
    }

    /**
     * Writes named tensors (in order) to {@code file} in format version 2, replacing it atomically.
     *
     * @param file the file to write
     * @param tensors the tensors by name; the map's iteration order is the file order
     * @throws IOException if the file cannot be written; an existing file is then left as it was
     */
    public static void save(Path file, Map<String, Tensor> tensors) throws IOException {
        AtomicFiles.write(file, os -> {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(os, crc));
            out.writeLong(MAGIC_V2);
            out.writeInt(tensors.size());
            byte[] chunk = new byte[CHUNK_BYTES];
            for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
                Tensor t = e.getValue();
                crc.reset();
                out.writeUTF(e.getKey());
                out.writeInt(t.shape().rank());
                for (int d : t.shape().dims()) {
                    out.writeInt(d);
                }
                writeFloats(out, t, chunk);
                out.writeInt((int) crc.getValue());
            }
            out.flush();
        });
    }

    /** Writes the values of {@code t} as big-endian floats, a chunk at a time. */
    private static void writeFloats(DataOutputStream out, Tensor t, byte[] chunk) throws IOException {
        int size = t.size();
        int done = 0;
        while (done < size) {
            int n = Math.min(size - done, chunk.length / Float.BYTES);
            ByteBuffer.wrap(chunk, 0, n * Float.BYTES).asFloatBuffer().put(t.data(), t.offset() + done, n);
            out.write(chunk, 0, n * Float.BYTES);
            done += n;
        }
    }

    /**
     * Reads the named tensors of {@code file} (format version 1 or 2), in file order. Damage (a bad magic, a size
     * the file cannot hold, a truncated file, a checksum that does not match) is an {@link IOException} that names
     * the file, the tensor and the byte offset; nothing is allocated for a size before it is checked against the
     * file's length.
     *
     * @param file the file to read
     * @return the tensors by name, in file order; each owns its storage
     * @throws IOException if the file cannot be read or is not a valid weights file
     */
    public static Map<String, Tensor> load(Path file) throws IOException {
        return WeightsFileReader.read(file);
    }
}
