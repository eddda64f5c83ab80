package dev.brisk.backend;

/**
 * The reference gate passes: scalar loops in {@link StrictMath}, so a seeded run gives the same bits whether or not
 * the JIT has compiled them.
 */
final class ScalarRecurrentGates implements RecurrentGates {
    /** The one instance. */
    static final ScalarRecurrentGates INSTANCE = new ScalarRecurrentGates();

    private ScalarRecurrentGates() {
    }

    @Override
    public void simpleForward(float[] st, int gs, int hNext, int b, int n) {
        int count = b * n;
        for (int i = 0; i < count; i++) {
            float h = (float) StrictMath.tanh(st[gs + i]);
            st[gs + i] = h;
            st[hNext + i] = h;
        }
    }

    @Override
    public void lstmForward(float[] st, int gs, int cPrev, int hNext, int b, int n) {
        int gw = 4 * n;
        int cNext = cPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            for (int j = 0; j < n; j++) {
                float i = sigmoid(st[row + j]);
                float f = sigmoid(st[row + n + j]);
                float c = (float) StrictMath.tanh(st[row + 2 * n + j]);
                float o = sigmoid(st[row + 3 * n + j]);
                st[row + j] = i;
                st[row + n + j] = f;
                st[row + 2 * n + j] = c;
                st[row + 3 * n + j] = o;
                int at = r * n + j;
                float cell = f * st[cPrev + at] + i * c;
                st[cNext + at] = cell;
                st[hNext + at] = o * (float) StrictMath.tanh(cell);
            }
        }
    }

    @Override
    public void gruForward(float[] st, int gs, int product, float[] bias, int recBias, int candidate,
                                   int hPrev, int b, int n) {
        int gw = 3 * n;
        int hNext = hPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int prow = product + r * gw;
            for (int j = 0; j < n; j++) {
                float z = sigmoid(st[row + j] + st[prow + j] + bias[recBias + j]);
                float reset = sigmoid(st[row + n + j] + st[prow + n + j] + bias[recBias + n + j]);
                float part = st[prow + 2 * n + j] + bias[recBias + 2 * n + j];
                float hh = (float) StrictMath.tanh(st[row + 2 * n + j] + reset * part);
                st[row + j] = z;
                st[row + n + j] = reset;
                st[row + 2 * n + j] = hh;
                int at = r * n + j;
                st[candidate + at] = part;
                st[hNext + at] = z * st[hPrev + at] + (1f - z) * hh;
            }
        }
    }

    private static float sigmoid(float v) {
        return (float) (1.0 / (1.0 + StrictMath.exp(-v)));
    }

    public void simpleBackward(float[] st, int gs, float[] sc, int dh, int dgs, int b, int n) {
        int count = b * n;
        for (int i = 0; i < count; i++) {
            float h = st[gs + i];
            sc[dgs + i] = sc[dh + i] * (1f - h * h);
        }
    }

    @Override
    public void lstmBackward(float[] st, int gs, int cPrev, float[] sc, int dh, int dc, int dgs, int b,
                                     int n) {
        int gw = 4 * n;
        int cNext = cPrev + b * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int drow = dgs + r * gw;
            for (int j = 0; j < n; j++) {
                int at = r * n + j;
                float i = st[row + j];
                float f = st[row + n + j];
                float c = st[row + 2 * n + j];
                float o = st[row + 3 * n + j];
                float tc = (float) StrictMath.tanh(st[cNext + at]);
                float dhv = sc[dh + at];
                float dcv = sc[dc + at] + dhv * o * (1f - tc * tc);
                sc[drow + j] = dcv * c * i * (1f - i);
                sc[drow + n + j] = dcv * st[cPrev + at] * f * (1f - f);
                sc[drow + 2 * n + j] = dcv * i * (1f - c * c);
                sc[drow + 3 * n + j] = dhv * tc * o * (1f - o);
                sc[dc + at] = dcv * f;
            }
        }
    }

    @Override
    public void gruBackward(float[] st, int gs, int candidate, int hPrev, float[] sc, int dh, int dgs,
                                    int drs, int b, int n) {
        int gw = 3 * n;
        for (int r = 0; r < b; r++) {
            int row = gs + r * gw;
            int drow = dgs + r * gw;
            int rrow = drs + r * gw;
            for (int j = 0; j < n; j++) {
                int at = r * n + j;
                float z = st[row + j];
                float reset = st[row + n + j];
                float hh = st[row + 2 * n + j];
                float part = st[candidate + at];
                float dhv = sc[dh + at];
                float dz = dhv * (st[hPrev + at] - hh) * z * (1f - z);
                float dCand = dhv * (1f - z) * (1f - hh * hh);
                float dReset = dCand * part * reset * (1f - reset);
                sc[drow + j] = dz;
                sc[drow + n + j] = dReset;
                sc[drow + 2 * n + j] = dCand;
                sc[rrow + j] = dz;
                sc[rrow + n + j] = dReset;
                sc[rrow + 2 * n + j] = dCand * reset;
                sc[dh + at] = dhv * z;
            }
        }
    }
}
