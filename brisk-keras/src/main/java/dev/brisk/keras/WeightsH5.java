package dev.brisk.keras;

import dev.brisk.nn.Model;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.api.WritableGroup;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;


/**
 * {@code model.weights.h5}: writing a model's and its optimizer's variables in Keras 3's layout
 * ({@link WeightsLayout}), and reading them back with every dataset's shape and type checked against the model
 * before its data is read.
 */
final class WeightsH5 {
    /** Where Brisk keeps its own state (the random stream), beside Keras' groups; Keras reads no such group. */
    static final String RANDOM_STATE = "brisk/random_state";

    private WeightsH5() {
    }

    /** The HDF5 file's bytes. */
    static byte[] write(Model m) throws IOException {
        Path tmp = Files.createTempFile("brisk-keras-", ".weights.h5");
        try {
            int datasets = 0;
            try (WritableHdfFile f = HdfFile.write(tmp)) {
                // Keras' layout, group by group.
                for (WeightsLayout.Group g : WeightsLayout.layers(m)) {
                    WritableGroup vars = group(f, g.path()).putGroup("vars");
                    for (int i = 0; i < g.vars().size(); i++) {
                        vars.putDataset(Integer.toString(i), array(g.vars().get(i).value()));
                        datasets++;
                    }
                }
                Optimizer opt = m.optimizer();
                if (opt != null) {
                    WritableGroup vars = f.putGroup("optimizer").putGroup("vars");
                    int i = 0;
                    vars.putDataset(Integer.toString(i++), opt.iterations());
                    if (!opt.hasSchedule()) {
                        vars.putDataset(Integer.toString(i++), opt.learningRate());
                    }
                    for (Variable slot : opt.stateVariables(KerasOrder.trainableVariables(m))) {
                        vars.putDataset(Integer.toString(i++), array(slot.value()));
                    }
                    datasets += i;
                }
                // The model's own (empty) variables group, which Keras' loader opens. jHDF 0.9.4 writes an empty
                // group at the root readably only when a group with data follows it: its file trailer is written
                // where the last dataset ended, over an empty group written after it. The random state's group
                // comes after "vars" in jHDF's (hash) order of the root's children; the file is read back below,
                // so a different order would fail here rather than write a broken file.
                f.putGroup("vars");
                f.putGroup("brisk").putDataset("random_state", m.randomState());
                datasets++;
            }
            byte[] bytes = Files.readAllBytes(tmp);
            checkReadable(bytes, datasets);
            return bytes;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static WritableGroup group(WritableHdfFile f, String path) {
        WritableGroup g = null;
        for (String part : path.split("/")) {
            Node child = g == null ? f.getChild(part) : g.getChild(part);
            if (child instanceof WritableGroup wg) {
                g = wg;
            } else {
                g = g == null ? f.putGroup(part) : g.putGroup(part);
            }
        }
        return g;
    }

    private static void checkReadable(byte[] bytes, int datasets) throws IOException {
        try (HdfFile f = HdfFile.fromBytes(bytes)) {
            int[] found = {0};
            count(f, found, 0);
            if (found[0] != datasets) {
                throw new IOException("jHDF wrote " + found[0] + " readable datasets of " + datasets);
            }
        } catch (RuntimeException e) {
            throw new IOException("the HDF5 file jHDF wrote does not read back: " + e, e);
        }
    }

    private static void count(Group g, int[] found, int depth) {
        for (Node n : g.getChildren().values()) {
            if (n instanceof Group child) {
                count(child, found, depth + 1);
            } else if (n instanceof Dataset d) {
                d.getData();
                found[0]++;
            }
        }
    }

    /** A tensor as the nested Java array jHDF writes with the tensor's shape. */
    private static Object array(Tensor t) {
        float[] flat = t.toArray();
        int[] dims = t.shape().dims();
        if (dims.length == 0) {
            return flat[0];
        }
        Object out = Array.newInstance(float.class, dims);
        fill(out, dims, 0, flat, new int[] {0});
        return out;
    }

    private static void fill(Object a, int[] dims, int axis, float[] flat, int[] pos) {
        if (axis == dims.length - 1) {
            float[] row = (float[]) a;
            System.arraycopy(flat, pos[0], row, 0, row.length);
            pos[0] += row.length;
            return;
        }
        for (int i = 0; i < dims[axis]; i++) {
            fill(Array.get(a, i), dims, axis + 1, flat, pos);
        }
    }

    // ---- reading ----

    /**
     * What was read: the model's weights in {@link Model#variables()} order, and the optimizer's state (its slots in
     * {@link KerasOrder#trainableVariables} order, or null when the file's optimizer never took a step).
     */
    record Loaded(List<Tensor> weights, Long iterations, Float learningRate, List<Tensor> slots, Long randomState) {
    }

    /**
     * Reads the weights of {@code m}'s layout, and the optimizer's state when {@code withOptimizer}; throws
     * {@link ConfigError} naming the HDF5 path for anything missing, extra, or of another shape or type.
     */
    static Loaded read(HdfFile f, Model m, boolean withOptimizer) {
        java.util.IdentityHashMap<Variable, Tensor> values = new java.util.IdentityHashMap<>();
        for (WeightsLayout.Group g : WeightsLayout.layers(m)) {
            Group vars = group(f, g.path() + "/vars");
            if (vars.getChildren().size() != g.vars().size()) {
                throw new ConfigError(g.path() + "/vars holds " + vars.getChildren().size() + " variables, the "
                        + "model's layer has " + g.vars().size());
            }
            for (int i = 0; i < g.vars().size(); i++) {
                Variable v = g.vars().get(i);
                values.put(v, floats(vars, g.path() + "/vars/" + i, Integer.toString(i), v.shape()));
            }
        }
        List<Tensor> weights = new ArrayList<>();
        for (Variable v : m.variables()) {
            weights.add(values.get(v));
        }
        Long iterations = null;
        Float lr = null;
        List<Tensor> slots = new ArrayList<>();
        if (withOptimizer && m.optimizer() != null && f.getChildren().containsKey("optimizer")) {
            Optimizer opt = m.optimizer();
            Group vars = group(f, "optimizer/vars");
            int i = 0;
            iterations = scalarLong(vars, "optimizer/vars/" + i, Integer.toString(i++));
            if (iterations < 0) {
                throw new ConfigError("optimizer/vars/0: iterations " + iterations + " is negative");
            }
            if (!opt.hasSchedule()) {
                lr = scalarFloat(vars, "optimizer/vars/" + i, Integer.toString(i++));
            }
            int scalars = i;
            List<Variable> state = opt.stateVariables(KerasOrder.trainableVariables(m));
            if (!state.isEmpty() && vars.getChildren().size() == scalars && iterations == 0) {
                // Keras saves an optimizer that never took a step (compiled, not trained) without its slots, and
                // its loader then keeps the new optimizer's state (load_own_variables skips a count that differs):
                // so does Brisk, whose freshly compiled optimizer is in that state.
                return new Loaded(weights, iterations, lr, null, randomState(f));
            }
            for (Variable slot : state) {
                slots.add(floats(vars, "optimizer/vars/" + i, Integer.toString(i++), slot.shape()));
            }
            if (vars.getChildren().size() != i) {
                throw new ConfigError("optimizer/vars holds " + vars.getChildren().size() + " variables, the "
                        + "optimizer of this model has " + i);
            }
        }
        return new Loaded(weights, iterations, lr, slots, randomState(f));
    }

    private static Long randomState(HdfFile f) {
        Node brisk = f.getChildren().get("brisk");
        if (brisk instanceof Group g && g.getChildren().containsKey("random_state")) {
            long random = scalarLong(g, RANDOM_STATE, "random_state");
            if (random < 0) {
                throw new ConfigError(RANDOM_STATE + " is negative");
            }
            return random;
        }
        return null;
    }

    private static Group group(HdfFile f, String path) {
        Node n;
        try {
            n = f.getByPath(path);
        } catch (RuntimeException e) {
            throw new ConfigError(path + " is missing");
        }
        if (!(n instanceof Group g)) {
            throw new ConfigError(path + " is not a group");
        }
        return g;
    }

    private static Dataset dataset(Group g, String path, String name) {
        Node n = g.getChildren().get(name);
        if (!(n instanceof Dataset d)) {
            throw new ConfigError(path + (n == null ? " is missing" : " is not a dataset"));
        }
        return d;
    }

    /** A float32 dataset of exactly {@code shape}, checked before its data is read. */
    private static Tensor floats(Group g, String path, String name, Shape shape) {
        Dataset d = dataset(g, path, name);
        int[] dims = d.getDimensions();
        if (!java.util.Arrays.equals(dims, shape.dims())) {
            throw new ConfigError(path + " has shape " + java.util.Arrays.toString(dims) + " but the model's weight "
                    + "has shape " + shape);
        }
        if (d.getJavaType() != float.class && d.getJavaType() != Float.class) {
            throw new ConfigError(path + " holds " + d.getJavaType().getSimpleName() + " values, not float32");
        }
        Object data = d.getData();
        float[] flat = new float[shape.size()];
        int[] pos = {0};
        flatten(data, flat, pos);
        if (pos[0] != flat.length) {
            throw new ConfigError(path + " holds " + pos[0] + " values, expected " + flat.length);
        }
        return Tensor.of(flat, shape.dims());
    }

    private static void flatten(Object data, float[] out, int[] pos) {
        if (data instanceof float[] row) {
            System.arraycopy(row, 0, out, pos[0], row.length);
            pos[0] += row.length;
        } else if (data instanceof Float x) {
            out[pos[0]++] = x;
        } else if (data instanceof Object[] rows) {
            for (Object r : rows) {
                flatten(r, out, pos);
            }
        } else {
            throw new ConfigError("unexpected HDF5 data " + (data == null ? "null" : data.getClass()));
        }
    }

    private static long scalarLong(Group g, String path, String name) {
        Dataset d = dataset(g, path, name);
        if (d.getDimensions().length != 0) {
            throw new ConfigError(path + " is not a scalar");
        }
        Object v = d.getData();
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Integer i) {
            return i;
        }
        throw new ConfigError(path + " is not an integer: " + v);
    }

    private static float scalarFloat(Group g, String path, String name) {
        Dataset d = dataset(g, path, name);
        if (d.getDimensions().length != 0) {
            throw new ConfigError(path + " is not a scalar");
        }
        Object v = d.getData();
        if (v instanceof Float x) {
            return x;
        }
        if (v instanceof Double x) {
            return x.floatValue();
        }
        throw new ConfigError(path + " is not a float: " + v);
    }

}
