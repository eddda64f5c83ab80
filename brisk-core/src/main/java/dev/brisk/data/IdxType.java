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

    /** The type code stored in the file. */
    public int code() {
        return code;
    }

    /** Bytes per element in the file. */
    public int byteSize() {
        return byteSize;
    }

    /** The type for {@code code}, or {@code null} when the code is not a known IDX type. */
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
        ByteBuffer buf = ByteBuffer.wrap(raw); // big-endian by default, as IDX requires
        switch (this) {
            case UBYTE -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = raw[i] & 0xFF;
                }
            }
            case BYTE -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = raw[i];
                }
            }
            case SHORT -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = buf.getShort();
                }
            }
            case INT -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = buf.getInt();
                }
            }
            case FLOAT -> buf.asFloatBuffer().get(out);
            case DOUBLE -> {
                for (int i = 0; i < out.length; i++) {
                    out[i] = (float) buf.getDouble();
                }
            }
        }
    }
}
