package dev.brisk.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What rank 0 and the driver say to each other over their control channel: rank 0 reports where training stands
 * ({@link Event}), the driver runs its callbacks and answers ({@link Reply}) whether to stop and, when a callback set
 * one, the new learning rate.
 */
final class ControlMessages {
    /** Rank 0 has joined (once per stage attempt). */
    static final byte HELLO = 1;
    /** An epoch begins. */
    static final byte EPOCH_BEGIN = 2;
    /** A step has ended (only when a driver callback handles steps). */
    static final byte BATCH_END = 3;
    /** An epoch has ended: its logs and the weights after it. */
    static final byte EPOCH_END = 4;
    /** Training has ended. */
    static final byte TRAIN_END = 5;

    private ControlMessages() {
    }

    /**
     * One report of rank 0.
     *
     * @param kind one of the constants above
     * @param epoch the epoch (HELLO: the stage attempt)
     * @param batch the step in the epoch (HELLO: the steps per epoch)
     * @param logs the logs (BATCH_END, EPOCH_END), else empty
     * @param weights the model's weights (EPOCH_END), else null
     */
    record Event(byte kind, int epoch, int batch, Map<String, Double> logs, float[][] weights) {
    }

    /**
     * The driver's answer to an event.
     *
     * @param stop whether every worker stops (a driver callback asked, or failed)
     * @param setLearningRate whether a driver callback set the learning rate
     * @param learningRate the learning rate it set
     */
    record Reply(boolean stop, boolean setLearningRate, float learningRate) {
    }

    static byte[] encode(Event e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(e.kind());
            out.writeInt(e.epoch());
            out.writeInt(e.batch());
            out.writeInt(e.logs().size());
            for (Map.Entry<String, Double> entry : e.logs().entrySet()) {
                out.writeUTF(entry.getKey());
                out.writeDouble(entry.getValue());
            }
            float[][] w = e.weights();
            out.writeInt(w == null ? -1 : w.length);
            if (w != null) {
                for (float[] a : w) {
                    out.writeInt(a.length);
                    for (float v : a) {
                        out.writeFloat(v);
                    }
                }
            }
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return bytes.toByteArray();
    }

    static Event decodeEvent(byte[] message) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(message));
        byte kind = in.readByte();
        if (kind < HELLO || kind > TRAIN_END) {
            throw new IOException("unknown control message kind " + kind);
        }
        int epoch = in.readInt();
        int batch = in.readInt();
        int n = in.readInt();
        Map<String, Double> logs = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            logs.put(in.readUTF(), in.readDouble());
        }
        int arrays = in.readInt();
        float[][] w = null;
        if (arrays >= 0) {
            w = new float[arrays][];
            for (int i = 0; i < arrays; i++) {
                int len = in.readInt();
                if (len < 0 || len > message.length / 4) {
                    throw new IOException("damaged control message: a weight array of " + len + " floats");
                }
                w[i] = new float[len];
                for (int k = 0; k < len; k++) {
                    w[i][k] = in.readFloat();
                }
            }
        }
        return new Event(kind, epoch, batch, logs, w);
    }

    static byte[] encode(Reply r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeBoolean(r.stop());
            out.writeBoolean(r.setLearningRate());
            out.writeFloat(r.learningRate());
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return bytes.toByteArray();
    }

    static Reply decodeReply(byte[] message) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(message));
        return new Reply(in.readBoolean(), in.readBoolean(), in.readFloat());
    }
}
