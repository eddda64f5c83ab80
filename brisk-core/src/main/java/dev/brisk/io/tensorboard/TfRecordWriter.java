package dev.brisk.io.tensorboard;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * TFRecord framing, the container of TensorBoard event files. Each record is
 * <pre>
 *   uint64 length            little-endian
 *   uint32 masked_crc(length) CRC32C of the 8 length bytes, masked
 *   byte   data[length]
 *   uint32 masked_crc(data)
 * </pre>
 * where {@code masked_crc(x) = ((c >>> 15) | (c << 17)) + 0xa282ead8} for {@code c = crc32c(x)}.
 */
final class TfRecordWriter {
    private static final int MASK_DELTA = 0xa282ead8;

    private final OutputStream out;
    private final CRC32C crc = new CRC32C();
    private final byte[] header = new byte[12];
    private final byte[] footer = new byte[4];

    TfRecordWriter(OutputStream out) {
        this.out = out;
    }

    void write(byte[] data) throws IOException {
        long length = data.length;
        for (int i = 0; i < 8; i++) {
            header[i] = (byte) (length >>> (8 * i));
        }
        putInt(header, 8, maskedCrc(header, 0, 8));
        putInt(footer, 0, maskedCrc(data, 0, data.length));
        out.write(header);
        out.write(data);
        out.write(footer);
    }

    /** TensorFlow's masked CRC32C of {@code bytes[offset, offset + length)}. */
    int maskedCrc(byte[] bytes, int offset, int length) {
        crc.reset();
        crc.update(bytes, offset, length);
        return mask((int) crc.getValue());
    }

    static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    private static void putInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
