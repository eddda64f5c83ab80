package dev.brisk.io;

import dev.brisk.tensor.Tensor;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Brisk's weights file: the magic {@code BRISKW01}, a count, then per tensor its name, rank, dimensions and
 * big-endian float32 values. Written atomically; reading names the file and byte offset of any damage.
 */
public final class WeightsFile {
    static final long MAGIC_V1 = 0x425249534b573031L; // "BRISKW01"

    private WeightsFile() {
    }

    /** Writes named tensors (in order) to {@code file}, replacing it atomically. */
    public static void save(Path file, Map<String, Tensor> tensors) throws IOException {
        AtomicFiles.write(file, os -> {
            DataOutputStream out = new DataOutputStream(os);
            out.writeLong(MAGIC_V1);
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
     * Reads the named tensors of {@code file}, in file order. Damage (a bad magic, a size the file cannot hold,
     * a truncated file) is an {@link IOException} that names the file, the tensor and the byte offset; nothing is
     * allocated for a size before it is checked against the file's length.
     */
    public static Map<String, Tensor> load(Path file) throws IOException {
        return WeightsFileReader.read(file);
    }
}
