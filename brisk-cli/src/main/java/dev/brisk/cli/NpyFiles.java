package dev.brisk.cli;

import dev.brisk.io.AtomicFiles;
import dev.brisk.tensor.Tensor;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Writes a float32 tensor as a NumPy {@code .npy} file (format 1.0, little-endian, C order). */
final class NpyFiles {
    private NpyFiles() {
    }

    static void write(Path file, Tensor t) throws IOException {
        StringBuilder shape = new StringBuilder("(");
        int[] dims = t.shape().dims();
        for (int i = 0; i < dims.length; i++) {
            shape.append(dims[i]).append(dims.length == 1 ? "," : i + 1 < dims.length ? ", " : "");
        }
        shape.append(')');
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
        // The magic, version and header length take 10 bytes; the header is padded with spaces and ends with a
        // newline so that the data starts at a multiple of 64 bytes, as NumPy writes it.
        int total = 10 + dict.length() + 1;
        int padded = (total + 63) / 64 * 64;
        String header = dict + " ".repeat(padded - total) + "\n";
        float[] values = t.toArray();
        AtomicFiles.write(file, os -> {
            DataOutputStream out = new DataOutputStream(os);
            out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            out.write(header.length() & 0xFF);
            out.write(header.length() >>> 8);
            out.write(header.getBytes(StandardCharsets.US_ASCII));
            ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (float v : values) {
                if (!buf.hasRemaining()) {
                    out.write(buf.array(), 0, buf.position());
                    buf.clear();
                }
                buf.putFloat(v);
            }
            out.write(buf.array(), 0, buf.position());
            out.flush();
        });
    }
}
