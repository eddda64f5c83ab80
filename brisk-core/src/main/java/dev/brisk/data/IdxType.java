package dev.brisk.data;

import java.nio.ByteBuffer;

/** The element types an IDX file may declare in the third byte of its magic number. */
public enum IdxType {
    /** 0x08: unsigned byte (MNIST pixels and labels). */
    UBYTE(0x08, 1),
    /** 0x09: signed byte. */
    BYTE(0x09, 1),
    /** 0x0B: big-endian signed 16-bit integer. */
    SHORT(0x0B, 2),
    /** 0x0C: big-endian signed 32-bit integer. */
    INT(0x0C, 4),
    /** 0x0D: big-endian IEEE 754 float32. */
    FLOAT(0x0D, 4),
    /** 0x0E: big-endian IEEE 754 float64 (narrowed to float32 when read). */
    DOUBLE(0x0E, 8);

    private final int code;
    private final int byteSize;

    IdxType(int code, int byteSize) {
        this.code = code;
        this.byteSize = byteSize;
    }

    /**
     * The type code stored in the file.
     *
     * @return the code, for example {@code 0x08} for unsigned bytes
     */
    public int code() {
        return code;
    }

    /**
     * Bytes per element in the file.
     *
     * @return the element size in bytes
     */
    public int byteSize() {
        return byteSize;
    }

    /**
     * The type for {@code code}, or {@code null} when the code is not a known IDX type.
     *
     * @param code the type code from the file header
     * @return the type, or null
     */
    public static IdxType fromCode(int code) {
        for (IdxType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /** A human-readable list of the supported codes, for error messages. */
    static String supportedCodes() {
        StringBuilder sb = new StringBuilder();
        for (IdxType t : values()) {
            sb.append(sb.isEmpty() ? "" : ", ")
                    .append(String.format("0x%02X", t.code)).append(' ').append(t.name().toLowerCase());
        }
        return sb.toString();
    }

    /** Decodes {@code out.length} big-endian elements of this type from {@code raw} into floats. */
    void decode(byte[] raw, float[] out) {
        decode(raw, out, 1f);
    }

    /**
     * Decodes {@code out.length} big-endian elements of this type from {@code raw} into floats, each divided by
     * {@code divisor} in the same pass (bit-identical to decoding and then dividing).
     */
    void decode(byte[] raw, float[] out, float divisor) {
        decode(raw, 0, out, 0, out.length, divisor);
    }

    /**
     * As {@link #decode(byte[], float[], float)} for {@code count} elements: those from element {@code rawFrom} of
     * {@code raw} into {@code out} from {@code outFrom}.
     */
    void decode(byte[] raw, int rawFrom, float[] out, int outFrom, int count, float divisor) {
        ByteBuffer buf = ByteBuffer.wrap(raw); // big-endian by default, as IDX requires
        int shift = outFrom - rawFrom;
        int from = rawFrom;
        int to = rawFrom + count;
        switch (this) {
            case UBYTE -> decodeBytes(raw, from, to, out, shift, divisor, 0xFF);
            case BYTE -> decodeBytes(raw, from, to, out, shift, divisor, -1);
            case SHORT -> {
                for (int i = from; i < to; i++) {
                    out[i + shift] = buf.getShort(2 * i) / divisor;
                }
            }
            case INT -> {
                for (int i = from; i < to; i++) {
                    out[i + shift] = buf.getInt(4 * i) / divisor;
                }
            }
            case FLOAT -> {
                buf.asFloatBuffer().get(from, out, outFrom, count);
                if (divisor != 1f) {
                    for (int i = outFrom; i < outFrom + count; i++) {
                        out[i] /= divisor;
                    }
                }
            }
            case DOUBLE -> {
                for (int i = from; i < to; i++) {
                    out[i + shift] = (float) buf.getDouble(8 * i) / divisor;
                }
            }
        }
    }

    /**
     * Byte elements through a 256-entry table of {@code value / divisor}: one load per element instead of a
     * conversion and a division (the table holds exactly the quotients the division would give).
     */
    private static void decodeBytes(byte[] raw, int from, int to, float[] out, int shift, float divisor, int mask) {
        float[] table = new float[256];
        for (int b = 0; b < 256; b++) {
            table[b] = (((byte) b) & mask) / divisor;
        }
        for (int i = from; i < to; i++) {
            out[i + shift] = table[raw[i] & 0xFF];
        }
    }
}
