package dev.brisk.io;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Brisk's weights file: the magic {@code BRISKW01}, a count, then per tensor its name, rank, dimensions and
 * big-endian float32 values. Written atomically; reading names the file and byte offset of any damage.
 */
public final class WeightsFile {
    private static final long MAGIC = 0x425249534b573031L; // "BRISKW01"

    private WeightsFile() {
    }

    /**
     * Writes named tensors (in order) to {@code file}, replacing it atomically.
     *
     * @param file the file to write
     * @param tensors the tensors by name; the map's iteration order is the file order
     * @throws IOException if the file cannot be written; an existing file is then left as it was
     */
    public static void save(Path file, Map<String, Tensor> tensors) throws IOException {
        AtomicFiles.write(file, os -> {
            DataOutputStream out = new DataOutputStream(os);
            out.writeLong(MAGIC);
            out.writeInt(tensors.size());
            for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
                Tensor t = e.getValue();
                out.writeUTF(e.getKey());
                out.writeInt(t.shape().rank());
                for (int d : t.shape().dims()) {
                    out.writeInt(d);
                }
                for (int i = 0; i < t.size(); i++) {
                    out.writeFloat(t.get(i));
                }
            }
            out.flush();
        });
    }

    /**
     * Reads the named tensors of {@code file}, in file order.
     *
     * @param file the file to read
     * @return the tensors by name, in file order; each owns its storage
     * @throws IOException if the file cannot be read or is not a valid weights file (the message names the file and
     *     offset)
     */
    public static Map<String, Tensor> load(Path file) throws IOException {
        long fileSize = Files.size(file);
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            CountingInputStream counter = new CountingInputStream(raw);
            DataInputStream in = new DataInputStream(counter);
            try {
                long magic = in.readLong();
                if (magic != MAGIC) {
                    throw new IOException(file + ": not a Brisk weights file (bad magic at offset 0)");
                }
                int count = in.readInt();
                Map<String, Tensor> out = new LinkedHashMap<>();
                for (int i = 0; i < count; i++) {
                    String name = in.readUTF();
                    int rank = in.readInt();
                    if (rank < 0 || rank > 8) {
                        throw new IOException(file + ": bad rank " + rank + " for '" + name + "' at offset "
                                + (counter.count() - 4));
                    }
                    int[] dims = new int[rank];
                    long elements = 1;
                    for (int d = 0; d < rank; d++) {
                        dims[d] = in.readInt();
                        if (dims[d] < 0) {
                            throw new IOException(file + ": bad dimension " + dims[d] + " for '" + name
                                    + "' at offset " + (counter.count() - 4));
                        }
                        long cap = Long.MAX_VALUE / 8;
                        elements = dims[d] == 0 ? 0 : elements > cap / dims[d] ? cap : elements * dims[d];
                    }
                    if (elements * 4 > fileSize - counter.count()) {
                        throw new IOException(file + ": shape " + java.util.Arrays.toString(dims) + " of '" + name
                                + "' needs " + elements * 4 + " bytes but only " + (fileSize - counter.count())
                                + " remain (truncated or damaged) at offset " + counter.count());
                    }
                    Tensor t = Tensor.zeros(Shape.of(dims));
                    for (int k = 0; k < t.size(); k++) {
                        t.set(k, in.readFloat());
                    }
                    out.put(name, t);
                }
                return out;
            } catch (EOFException e) {
                throw new IOException(file + ": truncated at offset " + counter.count(), e);
            }
        }
    }
}
