package dev.brisk.callbacks;

import dev.brisk.tensor.Tensor;
import java.util.List;

final class TestWeights {
    private TestWeights() {
    }

    static double maxDiff(List<Tensor> a, List<Tensor> b) {
        double m = 0;
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < a.get(i).size(); k++) {
                m = Math.max(m, Math.abs(a.get(i).get(k) - b.get(i).get(k)));
            }
        }
        return m;
    }
}
