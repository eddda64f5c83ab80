package dev.brisk.spark;

import dev.brisk.nn.Model;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A training checkpoint in a Hadoop-compatible folder (a local path, {@code file:}, {@code hdfs:}, {@code s3a:}):
 * the weights, the optimizer's state and update count, and where training stands (the epoch, the steps of it done,
 * the global step). Files are {@code checkpoint-<global step>.brisk}: each is written under a temporary name and
 * renamed, the previous one is kept until the new one exists, and loading takes the newest file whose CRC32C
 * matches, so a worker killed mid-write loses nothing but the steps since the last complete checkpoint.
 *
 * @param epoch the epoch to resume in
 * @param stepInEpoch the steps of that epoch already trained
 * @param globalStep the steps trained in all
 * @param iterations the optimizer's update count
 * @param weights the model's weights, in its order
 * @param slots the optimizer's state variables, in their order
 * @param epochLogs the logs of the epochs finished before it, for the driver's History
 */
public record TrainingCheckpoint(int epoch, int stepInEpoch, long globalStep, long iterations, float[][] weights,
                                 float[][] slots, List<Map<String, Double>> epochLogs) {
    private static final int MAGIC = 0x4252434B; // "BRCK"
    private static final String PREFIX = "checkpoint-";
    private static final String SUFFIX = ".brisk";

    /**
     * The state of {@code model} now.
     *
     * @param model the model (its optimizer's state included)
     * @param epoch the epoch to resume in
     * @param stepInEpoch the steps of that epoch already trained
     * @param globalStep the steps trained in all
     * @param epochLogs the logs of the finished epochs
     * @return the checkpoint
     */
    public static TrainingCheckpoint of(Model model, int epoch, int stepInEpoch, long globalStep,
                                        List<Map<String, Double>> epochLogs) {
        return new TrainingCheckpoint(epoch, stepInEpoch, globalStep, model.optimizer().iterations(),
                arrays(model.getWeights()), arrays(model.optimizer().slotVariables().stream().map(Variable::value)
                        .toList()), List.copyOf(epochLogs));
    }

    static float[][] arrays(List<Tensor> tensors) {
        float[][] out = new float[tensors.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = tensors.get(i).toArray();
        }
        return out;
    }

    /**
     * Puts this checkpoint's weights and optimizer state into {@code model} (its optimizer's state is created first
     * if no step has run yet).
     *
     * @param model a model of the same architecture and optimizer
     */
    public void restore(Model model) {
        setWeights(model, weights);
        restoreOptimizer(model, slots, iterations);
    }

    /** Puts an optimizer state ({@link #slots()}, {@link #iterations()}) into {@code model}'s optimizer. */
    static void restoreOptimizer(Model model, float[][] slots, long iterations) {
        model.optimizer().build(model.trainableVariables());
        List<Variable> s = model.optimizer().slotVariables();
        if (s.size() != slots.length) {
            throw new IllegalArgumentException("the checkpoint holds " + slots.length + " optimizer state tensors, "
                    + "the model's optimizer has " + s.size() + "; was it written for another model?");
        }
        for (int i = 0; i < slots.length; i++) {
            s.get(i).assign(Tensor.of(slots[i], s.get(i).shape().dims()));
        }
        model.optimizer().setIterations(iterations);
    }

    /** Sets {@code model}'s weights from flat arrays in its order. */
    static void setWeights(Model model, float[][] weights) {
        List<Tensor> current = model.getWeights();
        if (current.size() != weights.length) {
            throw new IllegalArgumentException("got " + weights.length + " weight tensors for model '"
                    + model.name() + "', which has " + current.size());
        }
        List<Tensor> w = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            w.add(Tensor.of(weights[i], current.get(i).shape().dims()));
        }
        model.setWeights(w);
    }

    /**
     * Writes this checkpoint into {@code folder} and removes the checkpoints before the previous one.
     *
     * @param folder the checkpoint folder (created if missing)
     * @throws IOException when the file system fails
     */
    public void save(String folder) throws IOException {
        Path dir = new Path(folder);
        FileSystem fs = dir.getFileSystem(new Configuration());
        fs.mkdirs(dir);
        Path target = new Path(dir, PREFIX + globalStep + SUFFIX);
        Path tmp = new Path(dir, "." + target.getName() + ".tmp-" + Long.toHexString(System.nanoTime()));
        try (FSDataOutputStream raw = fs.create(tmp, true)) {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                    new CheckedOutputStream(raw, crc), 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(epoch);
            out.writeInt(stepInEpoch);
            out.writeLong(globalStep);
            out.writeLong(iterations);
            writeArrays(out, weights);
            writeArrays(out, slots);
            out.writeInt(epochLogs.size());
            for (Map<String, Double> logs : epochLogs) {
                out.writeInt(logs.size());
                for (Map.Entry<String, Double> e : logs.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeDouble(e.getValue());
                }
            }
            out.flush();
            raw.writeLong(crc.getValue());
            raw.hsync();
        }
        fs.delete(target, false);
        if (!fs.rename(tmp, target)) {
            fs.delete(tmp, false);
            throw new IOException("could not rename " + tmp + " to " + target);
        }
        List<FileStatus> all = checkpoints(fs, dir);
        for (int i = 2; i < all.size(); i++) {
            fs.delete(all.get(i).getPath(), false);
        }
    }

    /**
     * The newest complete checkpoint in {@code folder}, or null when there is none (a missing folder included).
     * Files that fail their checksum are skipped, with a line on stderr naming them.
     *
     * @param folder the checkpoint folder
     * @return the checkpoint, or null
     * @throws IOException when the file system fails
     */
    public static TrainingCheckpoint loadLatest(String folder) throws IOException {
        Path dir = new Path(folder);
        FileSystem fs = dir.getFileSystem(new Configuration());
        if (!fs.exists(dir)) {
            return null;
        }
        for (FileStatus f : checkpoints(fs, dir)) {
            try (InputStream raw = fs.open(f.getPath())) {
                return read(raw, f.getLen(), f.getPath().toString());
            } catch (IOException e) {
                System.err.println("brisk: skipping checkpoint " + f.getPath() + ": " + e.getMessage());
            }
        }
        return null;
    }

    /** Checkpoint files of {@code dir}, newest (highest step) first. */
    private static List<FileStatus> checkpoints(FileSystem fs, Path dir) throws IOException {
        return Arrays.stream(fs.listStatus(dir))
                .filter(f -> f.getPath().getName().startsWith(PREFIX) && f.getPath().getName().endsWith(SUFFIX))
                .sorted(Comparator.comparingLong(TrainingCheckpoint::stepOf).reversed())
                .toList();
    }

    private static long stepOf(FileStatus f) {
        String n = f.getPath().getName();
        try {
            return Long.parseLong(n.substring(PREFIX.length(), n.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static TrainingCheckpoint read(InputStream raw, long length, String name) throws IOException {
        CRC32C crc = new CRC32C();
        DataInputStream in = new DataInputStream(new CheckedInputStream(new java.io.BufferedInputStream(raw, 1 << 16),
                crc));
        if (in.readInt() != MAGIC) {
            throw new IOException(name + " is not a Brisk training checkpoint");
        }
        int epoch = in.readInt();
        int step = in.readInt();
        long global = in.readLong();
        long iterations = in.readLong();
        float[][] w = readArrays(in, length, name);
        float[][] s = readArrays(in, length, name);
        int epochs = in.readInt();
        if (epochs < 0 || epochs > length) {
            throw new IOException(name + ": bad epoch count " + epochs);
        }
        List<Map<String, Double>> logs = new ArrayList<>();
        for (int e = 0; e < epochs; e++) {
            int entries = in.readInt();
            if (entries < 0 || entries > length) {
                throw new IOException(name + ": bad log size " + entries);
            }
            Map<String, Double> m = new LinkedHashMap<>();
            for (int k = 0; k < entries; k++) {
                String key = in.readUTF();
                m.put(key, in.readDouble());
            }
            logs.add(m);
        }
        long expected = crc.getValue();
        long stored = in.readLong();
        if (stored != expected) {
            throw new IOException(name + ": CRC32C mismatch (the file is damaged or incomplete)");
        }
        return new TrainingCheckpoint(epoch, step, global, iterations, w, s, logs);
    }

    private static void writeArrays(DataOutputStream out, float[][] arrays) throws IOException {
        out.writeInt(arrays.length);
        for (float[] a : arrays) {
            out.writeInt(a.length);
            for (float v : a) {
                out.writeFloat(v);
            }
        }
    }

    private static float[][] readArrays(DataInputStream in, long fileLength, String name) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > fileLength / 4) {
            throw new IOException(name + ": bad tensor count " + n);
        }
        float[][] out = new float[n][];
        for (int i = 0; i < n; i++) {
            int len = in.readInt();
            if (len < 0 || len > fileLength / 4) {
                throw new IOException(name + ": tensor " + i + " claims " + len + " floats in a file of "
                        + fileLength + " bytes");
            }
            out[i] = new float[len];
            for (int k = 0; k < len; k++) {
                out[i][k] = in.readFloat();
            }
        }
        return out;
    }
}
