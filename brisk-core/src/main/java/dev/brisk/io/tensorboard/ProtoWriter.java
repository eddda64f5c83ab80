package dev.brisk.io.tensorboard;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The few parts of the protocol buffers wire format that event files need: varints, 64- and 32-bit little-endian
 * numbers, and length-delimited fields (strings, bytes, nested messages, packed doubles). Every field written is
 * written explicitly, even when it holds its default value: parsers accept that, and it keeps a {@code oneof} member
 * such as a scalar of 0.0 present.
 */
final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;
    private static final int FIXED32 = 5;

    private byte[] buf = new byte[64];
    private int size;

    /** An {@code int64}, {@code int32} (non-negative), {@code bool} or enum field. */
    ProtoWriter varintField(int field, long value) {
        tag(field, VARINT);
        varint(value);
        return this;
    }

    /** A {@code double} field. */
    ProtoWriter doubleField(int field, double value) {
        tag(field, FIXED64);
        fixed64(Double.doubleToRawLongBits(value));
        return this;
    }

    /** A {@code float} field. */
    ProtoWriter floatField(int field, float value) {
        tag(field, FIXED32);
        fixed32(Float.floatToRawIntBits(value));
        return this;
    }

    /** A {@code string} field, UTF-8 encoded. */
    ProtoWriter stringField(int field, String value) {
        return bytesField(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A {@code bytes} field. */
    ProtoWriter bytesField(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        append(value, value.length);
        return this;
    }

    /** A nested message field. */
    ProtoWriter messageField(int field, ProtoWriter message) {
        tag(field, LENGTH_DELIMITED);
        varint(message.size);
        append(message.buf, message.size);
        return this;
    }

    /** A {@code repeated double} field in packed form (proto3's default for repeated numbers). */
    ProtoWriter packedDoubles(int field, double[] values) {
        tag(field, LENGTH_DELIMITED);
        varint(8L * values.length);
        for (double v : values) {
            fixed64(Double.doubleToRawLongBits(v));
        }
        return this;
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    private void tag(int field, int wireType) {
        if (field < 1 || field > (1 << 29) - 1) {
            throw new IllegalArgumentException("field number out of range: " + field);
        }
        varint(((long) field << 3) | wireType);
    }

    /** Base-128 varint, least significant group first; negative numbers take ten bytes, as protobuf writes them. */
    private void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    private void fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    private void fixed32(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    private void append(byte[] src, int length) {
        ensure(length);
        System.arraycopy(src, 0, buf, size, length);
        size += length;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }
}
