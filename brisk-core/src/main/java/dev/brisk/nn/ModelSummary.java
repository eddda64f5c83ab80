package dev.brisk.nn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/** Renders Keras' {@code model.summary()} table: layer (type), output shape, parameter count, totals. */
final class ModelSummary {
    private ModelSummary() {
    }

    static String render(Model m) {
        StringBuilder sb = new StringBuilder();
        sb.append("Model: \"").append(m.name()).append("\"\n");
        if (m.inputs().isEmpty()) {
            return sb.append("(not built yet: add an input layer, call build(...) or fit it on data)\n").toString();
        }
        boolean functional = m.isFunctional();
        List<String[]> rows = new ArrayList<>();
        if (functional) {
            for (SymbolicTensor in : m.inputs()) {
                rows.add(new String[] {label(in.layer()), Layer.withBatch(in.shape()), "0", ""});
            }
        }
        // One row per layer, as Keras: a shared layer lists every call's inputs in "Connected to".
        Map<Layer, List<SymbolicTensor>> callsByLayer = new LinkedHashMap<>();
        for (SymbolicTensor call : m.calls()) {
            callsByLayer.computeIfAbsent(call.layer(), l -> new ArrayList<>()).add(call);
        }
        for (Map.Entry<Layer, List<SymbolicTensor>> e : callsByLayer.entrySet()) {
            List<SymbolicTensor> calls = e.getValue();
            List<String> from = calls.stream().flatMap(c -> c.inputs().stream()).map(t -> t.layer().name()).toList();
            String shapes = String.join(", ", calls.stream().map(c -> Layer.withBatch(c.shape())).distinct().toList());
            rows.add(new String[] {label(e.getKey()), shapes, group(e.getKey().parameterCount()),
                String.join(", ", from)});
        }
        int[] width = {33, 26, 12, 24};
        int total = functional ? width[0] + width[1] + width[2] + width[3] : width[0] + width[1] + width[2];
        String thin = "_".repeat(total) + "\n";
        String thick = "=".repeat(total) + "\n";
        sb.append(thin);
        sb.append(row(width, functional, "Layer (type)", "Output Shape", "Param #", "Connected to"));
        sb.append(thick);
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            sb.append(row(width, functional, r[0], r[1], r[2], r[3]));
            sb.append(i + 1 < rows.size() ? "\n" : "");
        }
        sb.append(thick);
        long all = m.parameterCount();
        long trainable = m.trainableVariables().stream().mapToLong(v -> v.shape().size()).sum();
        sb.append("Total params: ").append(group(all)).append(" (").append(bytes(all)).append(")\n");
        sb.append("Trainable params: ").append(group(trainable)).append(" (").append(bytes(trainable)).append(")\n");
        sb.append("Non-trainable params: ").append(group(all - trainable)).append(" (").append(bytes(all - trainable))
                .append(")\n");
        sb.append(thin);
        return sb.toString();
    }

    private static String label(Layer l) {
        return l.name() + " (" + l.typeName() + ")";
    }

    private static String row(int[] w, boolean functional, String a, String b, String c, String d) {
        String s = " " + pad(a, w[0] - 1) + pad(b, w[1]) + pad(c, w[2]) + (functional ? d : "");
        return s.stripTrailing() + "\n";
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }

    private static String group(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String bytes(long params) {
        double b = params * 4.0;
        String[] units = {"B", "KB", "MB", "GB"};
        int u = 0;
        while (b >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f %s", b, units[u]);
    }
}
