package dev.brisk.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPOutputStream;

/** Test helper that encodes IDX files byte by byte, so tests can also build broken ones. */
final class IdxBytes {
    private IdxBytes() {
    }

    /** A complete IDX file: magic {@code 00 00 type rank}, the dimensions, then {@code data} verbatim. */
    static byte[] encode(int typeCode, int[] dims, byte[] data) {
        ByteBuffer buf = ByteBuffer.allocate(4 + 4 * dims.length + data.length);
        buf.put((byte) 0).put((byte) 0).put((byte) typeCode).put((byte) dims.length);
        for (int d : dims) {
            buf.putInt(d);
        }
        return buf.put(data).array();
    }

    /** An unsigned-byte IDX file. */
    static byte[] ubyte(int[] dims, byte[] data) {
        return encode(IdxType.UBYTE.code(), dims, data);
    }

    /** {@code bytes} gzip-compressed (deterministic: the gzip header carries no timestamp). */
    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The float values of an unsigned-byte array, back as bytes. */
    static byte[] toUbytes(float[] values, int from, int to) {
        byte[] out = new byte[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = (byte) (int) values[i];
        }
        return out;
    }
}
