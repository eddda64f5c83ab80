package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API forms of {@link BatchNormLoops}' row loops, with their bits: each lane does to its element the
 * float operations that the scalar loop does (a fused multiply-add where it uses {@link Math#fma}), and each
 * channel's run of rows is added in row order. The lanes run across the channels of a row, a whole vector at a time,
 * from channel 0 up to {@link #covered(int)}; the channels after that take the scalar loops.
 *
 * <p>Every vector that a loop carries starts from {@code FloatVector.zero(F)} in the method itself, never from a
 * shared constant: C2 must know a loop-carried vector's exact class to keep it in a register, and without it the
 * loop boxed a vector per row and ran five times slower.
 */
final class VectorBatchNormRows {
    /**
     * Channels from which {@link #paramSums} walks row by row: the column walk keeps its sums in registers, which
     * suits the convolutions' narrow rows, but on rows of a kilobyte or more (dense layers) each row of a run lands
     * on its own page in each input, and a 1024-channel call ran five times slower than the row walk.
     */
    private static final int WIDE_ROW = 256;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final int L = F.length();
    /** The widest rows {@link #normalizeAddRelu} takes without an add: two vectors. */
    static final int NARROW_ROW = 2 * L;
    /** Rows {@link #normalizeAddRelu} walks at a time without an add (64 rows of two vectors: 8 KB). */
    private static final int RELU_BLOCK = 64;

    private VectorBatchNormRows() {
    }

    /** Channels that the vector loops cover: whole vectors from channel 0. */
    static int covered(int channels) {
        return channels - channels % L;
    }

    /** {@code gate > 0 ? dy : 0} (relu's gradient), or {@code dy} without a gate. */
    private static FloatVector gated(float[] dy, int i, float[] gate, int gi) {
        FloatVector g = FloatVector.fromArray(F, dy, i);
        if (gate == null) {
            return g;
        }
        return FloatVector.zero(F).blend(g, FloatVector.fromArray(F, gate, gi).compare(VectorOperators.GT, 0f));
    }

    /** The float sums of rows {@code [r0, r1)} of {@code x}, channels {@code [0, cv)}, into {@code run[c]}. */
    static void sums(float[] x, int xOff, int channels, int cv, float[] run, int r0, int r1) {
        for (int c = 0; c < cv; c += L) {
            FloatVector s = FloatVector.zero(F);
            for (int r = r0, i = xOff + r0 * channels + c; r < r1; r++, i += channels) {
                s = s.add(FloatVector.fromArray(F, x, i));
            }
            s.intoArray(run, c);
        }
    }

    /**
     * {@link #sums} of four neighbouring runs of {@code n} rows from {@code r0}, run {@code k}'s sums into
     * {@code run[k channels + c]}: the four chains of additions are independent, so interleaving them hides the
     * latency of each add (one run at a time waits on it row after row), and each chain's additions are the single
     * run's, in its order.
     */
    static void sums4(float[] x, int xOff, int channels, int cv, float[] run, int r0, int n) {
        int step = n * channels;
        for (int c = 0; c < cv; c += L) {
            FloatVector s0 = FloatVector.zero(F);
            FloatVector s1 = FloatVector.zero(F);
            FloatVector s2 = FloatVector.zero(F);
            FloatVector s3 = FloatVector.zero(F);
            for (int r = 0, i = xOff + r0 * channels + c; r < n; r++, i += channels) {
                s0 = s0.add(FloatVector.fromArray(F, x, i));
                s1 = s1.add(FloatVector.fromArray(F, x, i + step));
                s2 = s2.add(FloatVector.fromArray(F, x, i + 2 * step));
                s3 = s3.add(FloatVector.fromArray(F, x, i + 3 * step));
            }
            s0.intoArray(run, c);
            s1.intoArray(run, channels + c);
            s2.intoArray(run, 2 * channels + c);
            s3.intoArray(run, 3 * channels + c);
        }
    }

    /** {@link #squares} of four neighbouring runs, laid out and interleaved as in {@link #sums4}. */
    static void squares4(float[] x, int xOff, int channels, int cv, float[] mean, int meanOff, float[] run, int r0,
                         int n) {
        int step = n * channels;
        for (int c = 0; c < cv; c += L) {
            FloatVector m = FloatVector.fromArray(F, mean, meanOff + c);
            FloatVector s0 = FloatVector.zero(F);
            FloatVector s1 = FloatVector.zero(F);
            FloatVector s2 = FloatVector.zero(F);
            FloatVector s3 = FloatVector.zero(F);
            for (int r = 0, i = xOff + r0 * channels + c; r < n; r++, i += channels) {
                FloatVector d0 = FloatVector.fromArray(F, x, i).sub(m);
                FloatVector d1 = FloatVector.fromArray(F, x, i + step).sub(m);
                FloatVector d2 = FloatVector.fromArray(F, x, i + 2 * step).sub(m);
                FloatVector d3 = FloatVector.fromArray(F, x, i + 3 * step).sub(m);
                s0 = d0.fma(d0, s0);
                s1 = d1.fma(d1, s1);
                s2 = d2.fma(d2, s2);
                s3 = d3.fma(d3, s3);
            }
            s0.intoArray(run, c);
            s1.intoArray(run, channels + c);
            s2.intoArray(run, 2 * channels + c);
            s3.intoArray(run, 3 * channels + c);
        }
    }

    /**
     * The float sums of {@code (x - mean)^2} over rows {@code [r0, r1)}, channels {@code [0, cv)}, into run; channel
     * {@code c}'s mean at {@code mean[meanOff + c]}.
     */
    static void squares(float[] x, int xOff, int channels, int cv, float[] mean, int meanOff, float[] run, int r0,
                        int r1) {
        for (int c = 0; c < cv; c += L) {
            FloatVector m = FloatVector.fromArray(F, mean, meanOff + c);
            FloatVector s = FloatVector.zero(F);
            for (int r = r0, i = xOff + r0 * channels + c; r < r1; r++, i += channels) {
                FloatVector d = FloatVector.fromArray(F, x, i).sub(m);
                s = d.fma(d, s);
            }
            s.intoArray(run, c);
        }
    }

    /**
     * The float sums of {@code dy} into {@code run[c]} and of {@code dy (x - mean)} into {@code run[channels + c]}
     * over rows {@code [r0, r1)}, channels {@code [0, cv)}, the means at {@code k[0, channels)}; {@code dy} gated
     * where a gate is given, or with {@code underRelu} where {@code fma(x - mean, k[channels + c], k[2 channels + c])}
     * (the normalization relu read) is not above zero.
     */
    static void paramSums(float[] dy, int dyOff, float[] gate, int gateOff, boolean underRelu, float[] x, int xOff,
                          float[] k, int channels, int cv, float[] run, int r0, int r1) {
        if (channels < WIDE_ROW) {
            paramSumsByColumn(dy, dyOff, gate, gateOff, underRelu, x, xOff, k, channels, cv, run, r0, r1);
        } else {
            paramSumsByRow(dy, dyOff, gate, gateOff, underRelu, x, xOff, k, channels, cv, run, r0, r1);
        }
    }

    /** {@link #paramSums} down each channel's column, the sums in registers: for rows that span few pages. */
    private static void paramSumsByColumn(float[] dy, int dyOff, float[] gate, int gateOff, boolean underRelu,
                                          float[] x, int xOff, float[] k, int channels, int cv, float[] run, int r0,
                                          int r1) {
        for (int c = 0; c < cv; c += L) {
            FloatVector m = FloatVector.fromArray(F, k, c);
            FloatVector scale = FloatVector.fromArray(F, k, channels + c);
            FloatVector shift = FloatVector.fromArray(F, k, 2 * channels + c);
            FloatVector s = FloatVector.zero(F);
            FloatVector p = FloatVector.zero(F);
            for (int r = r0, i = r0 * channels + c; r < r1; r++, i += channels) {
                FloatVector g = gated(dy, dyOff + i, gate, gateOff + i);
                FloatVector d = FloatVector.fromArray(F, x, xOff + i).sub(m);
                if (underRelu) {
                    g = FloatVector.zero(F).blend(g, d.fma(scale, shift).compare(VectorOperators.GT, 0f));
                }
                s = s.add(g);
                p = g.fma(d, p);
            }
            s.intoArray(run, c);
            p.intoArray(run, channels + c);
        }
    }

    /**
     * {@link #paramSums} row by row, the running sums in {@code run} (in L1): the three inputs are read in address
     * order, where the column walk touches a new page per row and input once rows are kilobytes wide. Each channel
     * still adds its rows in order from zero, so the bits are the column walk's.
     */
    private static void paramSumsByRow(float[] dy, int dyOff, float[] gate, int gateOff, boolean underRelu,
                                       float[] x, int xOff, float[] k, int channels, int cv, float[] run, int r0,
                                       int r1) {
        for (int c = 0; c < cv; c += L) {
            FloatVector.zero(F).intoArray(run, c);
            FloatVector.zero(F).intoArray(run, channels + c);
        }
        for (int r = r0; r < r1; r++) {
            int row = r * channels;
            for (int c = 0; c < cv; c += L) {
                int i = row + c;
                FloatVector g = gated(dy, dyOff + i, gate, gateOff + i);
                FloatVector d = FloatVector.fromArray(F, x, xOff + i).sub(FloatVector.fromArray(F, k, c));
                if (underRelu) {
                    FloatVector normalized = d.fma(FloatVector.fromArray(F, k, channels + c),
                            FloatVector.fromArray(F, k, 2 * channels + c));
                    g = FloatVector.zero(F).blend(g, normalized.compare(VectorOperators.GT, 0f));
                }
                FloatVector.fromArray(F, run, c).add(g).intoArray(run, c);
                g.fma(d, FloatVector.fromArray(F, run, channels + c)).intoArray(run, channels + c);
            }
        }
    }

    /**
     * {@code y = fma(x - k[c], k[channels + c], k[2 channels + c])} over rows {@code [r0, r1)}, channels
     * {@code [0, cv)}.
     */
    static void normalize(float[] x, int xOff, float[] k, float[] y, int yOff, int channels, int cv, int r0,
                          int r1) {
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * channels;
            int yi = yOff + r * channels;
            for (int c = 0; c < cv; c += L) {
                FloatVector v = FloatVector.fromArray(F, x, xi + c).sub(FloatVector.fromArray(F, k, c));
                v.fma(FloatVector.fromArray(F, k, channels + c), FloatVector.fromArray(F, k, 2 * channels + c))
                        .intoArray(y, yi + c);
            }
        }
    }

    /**
     * {@link #normalize} over all {@code channels} (whole vectors), then {@code + other} where {@code other} is not
     * null (the normalized value the first operand when {@code normalizedFirst}), then relu where {@code relu}, in one
     * pass: each element gets the operations the separate add and relu loops would give it ({@code a.add(b)},
     * {@code max(0)}), so the same bits, without reading and writing the rows twice more. Without {@code other} the
     * rows should be at most {@link #NARROW_ROW} wide: they are walked a block of rows and a vector of channels at a
     * time, the coefficients in registers (on rows of 1024 channels that walk ran 3-5x slower than the row walk).
     */
    static void normalizeAddRelu(float[] x, int xOff, float[] k, float[] other, int otherOff, boolean normalizedFirst,
                                 boolean relu, float[] y, int yOff, int channels, int r0, int r1) {
        if (other == null) {
            normalizeRelu(x, xOff, k, relu, y, yOff, channels, r0, r1);
            return;
        }
        for (int r = r0; r < r1; r++) {
            int xi = xOff + r * channels;
            int yi = yOff + r * channels;
            int oi = otherOff + r * channels;
            for (int c = 0; c < channels; c += L) {
                FloatVector v = FloatVector.fromArray(F, x, xi + c).sub(FloatVector.fromArray(F, k, c))
                        .fma(FloatVector.fromArray(F, k, channels + c), FloatVector.fromArray(F, k, 2 * channels + c));
                FloatVector o = FloatVector.fromArray(F, other, oi + c);
                v = normalizedFirst ? v.add(o) : o.add(v);
                if (relu) {
                    v = v.max(0f);
                }
                v.intoArray(y, yi + c);
            }
        }
    }

    /** {@link #normalizeAddRelu} without the add: {@link #RELU_BLOCK} rows and a vector of channels at a time. */
    private static void normalizeRelu(float[] x, int xOff, float[] k, boolean relu, float[] y, int yOff, int channels,
                                      int r0, int r1) {
        // max(v, -inf) is v itself (NaN and -0 included): one loop body with or without relu.
        FloatVector floor = FloatVector.broadcast(F, relu ? 0f : Float.NEGATIVE_INFINITY);
        for (int b0 = r0; b0 < r1; b0 += RELU_BLOCK) {
            int b1 = Math.min(r1, b0 + RELU_BLOCK);
            for (int c = 0; c < channels; c += L) {
                FloatVector mean = FloatVector.fromArray(F, k, c);
                FloatVector scale = FloatVector.fromArray(F, k, channels + c);
                FloatVector shift = FloatVector.fromArray(F, k, 2 * channels + c);
                for (int r = b0; r < b1; r++) {
                    int i = r * channels + c;
                    FloatVector.fromArray(F, x, xOff + i).sub(mean).fma(scale, shift).max(floor)
                            .intoArray(y, yOff + i);
                }
            }
        }
    }

    /**
     * {@code dx = k[c] fma(k[3 channels + c] - x, k[2 channels + c], dy - k[channels + c])} in training, else
     * {@code dx = k[c] dy}, over rows {@code [r0, r1)}, channels {@code [0, cv)}; {@code dy} gated where a gate is
     * given, or with {@code underRelu} where {@code fma(x - k[3 channels + c], k[c], k[4 channels + c])} (the
     * normalization relu read) is not above zero.
     */
    static void inputGrad(boolean training, float[] dy, int dyOff, float[] gate, int gateOff, boolean underRelu,
                          float[] x, int xOff, float[] k, float[] dx, int dxOff, int channels, int cv, int r0,
                          int r1) {
        for (int r = r0; r < r1; r++) {
            int base = r * channels;
            for (int c = 0; c < cv; c += L) {
                FloatVector g = gated(dy, dyOff + base + c, gate, gateOff + base + c);
                if (underRelu) {
                    FloatVector normalized = FloatVector.fromArray(F, x, xOff + base + c)
                            .sub(FloatVector.fromArray(F, k, 3 * channels + c))
                            .fma(FloatVector.fromArray(F, k, c), FloatVector.fromArray(F, k, 4 * channels + c));
                    g = FloatVector.zero(F).blend(g, normalized.compare(VectorOperators.GT, 0f));
                }
                if (training) {
                    FloatVector centered = FloatVector.fromArray(F, k, 3 * channels + c)
                            .sub(FloatVector.fromArray(F, x, xOff + base + c));
                    g = centered.fma(FloatVector.fromArray(F, k, 2 * channels + c),
                            g.sub(FloatVector.fromArray(F, k, channels + c)));
                }
                FloatVector.fromArray(F, k, c).mul(g).intoArray(dx, dxOff + base + c);
            }
        }
    }
}
