package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.config.Settings;
import dev.brisk.graph.Autodiff;
import dev.brisk.exec.Plan;
import dev.brisk.exec.Planner;
import dev.brisk.graph.Graph;
import dev.brisk.ops.OpType;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A small finite-difference gradient checker for eager Brisk graphs.
 *
 * <p>A {@link Problem} builds {@code y} into a fresh eager graph from the current values of a list of tensors
 * (inputs fed with {@code g.input}, or variable values, which the graph reads by reference). The checked scalar is
 * {@code f = sum(y * R)} for a fixed random {@code R} (or {@code f = y} times a random scalar when {@code y} is a
 * scalar). The analytic gradient comes from {@link Autodiff}; the numeric one from central differences with the
 * forward output summed in double on the host. Each parameter element is perturbed in place and restored. The
 * analytic pass is also compiled with the {@link Planner} and must agree with the eager one.
 */
final class GradCheck {
    /** Default central-difference step (float32 forward passes). */
    static final double EPS = 1e-2;
    /** Default tolerance: {@code |analytic - numeric| <= ATOL + RTOL * |numeric|}. */
    static final double RTOL = 5e-3;
    static final double ATOL = 1e-3;
    /** Tighter absolute floor for scalar losses, whose gradients are O(1/batch). */
    static final double LOSS_ATOL = 1e-4;
    /** Tolerance of {@link #directional}, relative to {@code ||(grad_i step_i)_i||_2} (observed worst: 1.3e-3). */
    static final double DIRECTIONAL_RTOL = 1e-2;
    /** Set -Dbrisk.gradcheck.verbose=true to print the worst error ratio of every check. */
    private static final boolean VERBOSE = Settings.gradCheckVerbose();

    private GradCheck() {
    }

    /** Builds the output from the current tensors and appends, in order, one node per checked tensor. */
    @FunctionalInterface
    interface Problem {
        Node forward(Graph g, List<Node> paramNodes);
    }

    /** An op of some input nodes, for {@link #op}. */
    @FunctionalInterface
    interface OpFn {
        Node apply(Graph g, List<Node> xs);
    }

    static Kernels kernels(String name) {
        return switch (name) {
            case "default" -> Backends.get();
            case "scalar" -> Backends.scalar();
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Checks d sum(fn(inputs) * R) / d input for every input, feeding each as an eager INPUT node. */
    static double op(Kernels k, String what, OpFn fn, Tensor... inputs) {
        return op(k, what, EPS, fn, inputs);
    }

    static double op(Kernels k, String what, double eps, OpFn fn, Tensor... inputs) {
        List<Tensor> params = new ArrayList<>();
        for (Tensor t : inputs) {
            params.add(t.copy());
        }
        Problem p = (g, nodes) -> {
            List<Node> xs = new ArrayList<>();
            for (int i = 0; i < params.size(); i++) {
                xs.add(g.input("x" + i, params.get(i)));
            }
            nodes.addAll(xs);
            return fn.apply(g, xs);
        };
        return check(k, what, params, p, eps, ATOL);
    }

    /**
     * Compares analytic and numeric gradients of {@code f = sum(y * R)} with respect to each tensor of
     * {@code params}; returns the worst {@code |a - n| / (atol + RTOL |n|)} (at most 1 when it passes).
     */
    static double check(Kernels k, String what, List<Tensor> params, Problem p, double eps, double atol) {
        Graph g = Graph.eager(k);
        List<Node> nodes = new ArrayList<>();
        Node y = p.forward(g, nodes);
        assertEquals(params.size(), nodes.size(), what + ": one node per checked tensor");
        Tensor r = weightsFor(y.shape(), what);
        Node f = g.sumAll(g.mul(y, g.constant(r)));
        List<Node> grads = Autodiff.gradients(g, f, nodes);
        compiledAgrees(k, what, p, g, y, grads);
        double worst = 0;
        double biggest = 0;
        for (int i = 0; i < params.size(); i++) {
            Tensor t = params.get(i);
            Tensor analytic = grads.get(i).value();
            assertEquals(t.shape(), analytic.shape(), what + ": gradient shape of param " + i);
            float[] a = analytic.toArray();
            for (int j = 0; j < t.size(); j++) {
                float orig = t.get(j);
                float xp = (float) (orig + eps);
                float xm = (float) (orig - eps);
                t.set(j, xp);
                double fp = evaluate(k, p, r);
                t.set(j, xm);
                double fm = evaluate(k, p, r);
                t.set(j, orig);
                double n = (fp - fm) / ((double) xp - (double) xm);
                double bound = atol + RTOL * Math.abs(n);
                double err = Math.abs(a[j] - n);
                worst = Math.max(worst, err / bound);
                biggest = Math.max(biggest, Math.abs(n));
                if (err > bound) {
                    fail(String.format("%s [%s]: d/d param %d element %d: analytic %.7g vs numeric %.7g "
                            + "(|diff| %.3g > %.3g)", what, k.name(), i, j, a[j], n, err, bound));
                }
            }
        }
        assertTrue(biggest > 10 * atol, what + ": every numeric gradient is ~0; the check would be vacuous");
        if (VERBOSE) {
            System.out.printf("gradcheck %-60s %-10s worst %.3f of tolerance%n", what, k.name(), worst);
        }
        return worst;
    }

    /**
     * A directional check for tensors too big to difference element by element: perturbs every parameter at once
     * along a fixed random direction {@code u} and compares {@code f(x + eps u) - f(x - eps u)} with
     * {@code sum(grad * (x+ - x-))} (the actual float steps). The tolerance is relative to the L2 norm of the terms
     * {@code grad_i step_i} (not their sum, which can cancel): about the size of one typical term times
     * {@code sqrt(n)}, so a gradient wrong in a single element of a few thousand still shows.
     */
    static void directional(Kernels k, String what, List<Tensor> params, Problem p, double eps, double rtol) {
        Graph g = Graph.eager(k);
        List<Node> nodes = new ArrayList<>();
        Node y = p.forward(g, nodes);
        assertEquals(params.size(), nodes.size(), what + ": one node per checked tensor");
        Tensor r = weightsFor(y.shape(), what);
        Node f = g.sumAll(g.mul(y, g.constant(r)));
        List<Node> grads = Autodiff.gradients(g, f, nodes);
        compiledAgrees(k, what, p, g, y, grads);
        List<float[]> originals = new ArrayList<>();
        List<float[]> plus = new ArrayList<>();
        List<float[]> minus = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(what.hashCode());
        for (Tensor t : params) {
            float[] o = t.toArray();
            float[] a = new float[o.length];
            float[] b = new float[o.length];
            for (int i = 0; i < o.length; i++) {
                double u = rnd.nextGaussian();
                a[i] = (float) (o[i] + eps * u);
                b[i] = (float) (o[i] - eps * u);
            }
            originals.add(o);
            plus.add(a);
            minus.add(b);
        }
        double analytic = 0;
        double scale = 0;
        double l2 = 0;
        for (int j = 0; j < params.size(); j++) {
            Tensor gr = grads.get(j).value();
            assertEquals(params.get(j).shape(), gr.shape(), what + ": gradient shape of param " + j);
            for (int i = 0; i < gr.size(); i++) {
                double term = (double) gr.get(i) * ((double) plus.get(j)[i] - minus.get(j)[i]);
                analytic += term;
                scale += Math.abs(term);
                l2 += term * term;
            }
        }
        setAll(params, plus);
        double fp = evaluate(k, p, r);
        setAll(params, minus);
        double fm = evaluate(k, p, r);
        setAll(params, originals);
        double numeric = fp - fm;
        double bound = rtol * Math.sqrt(l2) + 1e-7;
        if (VERBOSE) {
            System.out.printf("directional %-55s %-10s %.3f of tolerance (sum |terms| %.3g)%n", what, k.name(),
                    Math.abs(analytic - numeric) / bound, scale);
        }
        assertTrue(Math.sqrt(l2) > 1e-4, what + ": gradient ~0, vacuous check");
        if (!(Math.abs(analytic - numeric) <= bound)) {
            fail(String.format("%s [%s]: directional difference analytic %.7g vs numeric %.7g (|diff| %.3g > %.3g)",
                    what, k.name(), analytic, numeric, Math.abs(analytic - numeric), bound));
        }
    }

    private static void setAll(List<Tensor> params, List<float[]> values) {
        for (int j = 0; j < params.size(); j++) {
            float[] v = values.get(j);
            Tensor t = params.get(j);
            for (int i = 0; i < v.length; i++) {
                t.set(i, v[i]);
            }
        }
    }

    /** {@link #directional} for an op of fresh input copies. */
    static void directionalOp(Kernels k, String what, double eps, OpFn fn, Tensor... inputs) {
        List<Tensor> params = new ArrayList<>();
        for (Tensor t : inputs) {
            params.add(t.copy());
        }
        Problem p = (g, nodes) -> {
            List<Node> xs = new ArrayList<>();
            for (int i = 0; i < params.size(); i++) {
                xs.add(g.input("x" + i, params.get(i)));
            }
            nodes.addAll(xs);
            return fn.apply(g, xs);
        };
        directional(k, what, params, p, eps, DIRECTIONAL_RTOL);
    }

    /**
     * Traces the same problem symbolically, compiles it with the {@link Planner} (dead-code removal, buffer reuse)
     * and checks that the compiled step gives the eager output and gradients. Node ids line up because the
     * problem, the projection and {@link Autodiff} are deterministic; each INPUT is fed its eager value.
     */
    private static void compiledAgrees(Kernels k, String what, Problem p, Graph eager, Node yEager,
                                       List<Node> gradsEager) {
        Graph s = Graph.symbolic(k);
        List<Node> nodes = new ArrayList<>();
        Node y = p.forward(s, nodes);
        Tensor r = weightsFor(y.shape(), what);
        Node f = s.sumAll(s.mul(y, s.constant(r)));
        List<Node> grads = Autodiff.gradients(s, f, nodes);
        List<Node> outputs = new ArrayList<>(grads);
        outputs.add(y);
        Plan plan = Planner.compile(s.nodes(), outputs, k);
        List<Node> eagerNodes = eager.nodes();
        for (Node n : s.nodes()) {
            if (n.op() == OpType.INPUT && plan.hasInput(n)) {
                Node e = eagerNodes.get(n.id());
                assertEquals(OpType.INPUT, e.op(), what + ": eager and symbolic traces differ at node " + n.id());
                plan.feed(n, e.value());
            }
        }
        plan.run();
        assertSame(what + " compiled y", yEager.value(), plan.output(y));
        for (int i = 0; i < grads.size(); i++) {
            assertSame(what + " compiled gradient " + i, gradsEager.get(i).value(), plan.output(grads.get(i)));
        }
    }

    /** Eager and compiled run the same kernel calls: equal up to float rounding. */
    private static void assertSame(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        for (int i = 0; i < expected.size(); i++) {
            float e = expected.get(i);
            float a = actual.get(i);
            if (!(Math.abs(a - e) <= 1e-5 * Math.max(1, Math.abs(e)))) {
                fail(what + ": element " + i + ": eager " + e + " vs compiled " + a);
            }
        }
    }

    private static double evaluate(Kernels k, Problem p, Tensor r) {
        Graph g = Graph.eager(k);
        Tensor y = p.forward(g, new ArrayList<>()).value();
        double s = 0;
        for (int i = 0; i < y.size(); i++) {
            s += (double) y.get(i) * r.get(i);
        }
        return s;
    }

    /** The fixed random projection R for an output shape (a random non-trivial scalar for scalar outputs). */
    private static Tensor weightsFor(Shape s, String what) {
        SplittableRandom rnd = new SplittableRandom(what.hashCode() * 31L + s.hashCode());
        float[] v = new float[s.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (0.5 + rnd.nextDouble()) * (rnd.nextBoolean() ? 1 : -1);
        }
        return Tensor.wrap(v, 0, s);
    }

    // ---- data ----

    static Tensor gaussian(long seed, double scale, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Shape.of(dims).size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (r.nextGaussian() * scale);
        }
        return Tensor.wrap(v, 0, Shape.of(dims));
    }

    static Tensor uniform(long seed, double lo, double hi, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Shape.of(dims).size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (lo + (hi - lo) * r.nextDouble());
        }
        return Tensor.wrap(v, 0, Shape.of(dims));
    }

    /** Random sign times a magnitude in [lo, hi]: no value within {@code lo} of zero (no kinks at 0). */
    static Tensor awayFromZero(long seed, double lo, double hi, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Shape.of(dims).size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) ((lo + (hi - lo) * r.nextDouble()) * (r.nextBoolean() ? 1 : -1));
        }
        return Tensor.wrap(v, 0, Shape.of(dims));
    }

    /** A shuffled grid {@code (i - n/2) * spacing + offset}: all values distinct, pairwise at least {@code spacing} apart. */
    static Tensor distinct(long seed, double spacing, double offset, int... dims) {
        int n = Shape.of(dims).size();
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) ((perm[i] - n / 2.0) * spacing + offset);
        }
        return Tensor.wrap(v, 0, Shape.of(dims));
    }

    /** Values {@code k * 0.1 + offset} for random integer k in [-12, 12]; two such tensors with offsets 0.03 and
     * -0.02 differ pairwise by at least 0.05 (no ties for MAX/MIN). */
    static Tensor onGrid(long seed, double offset, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[Shape.of(dims).size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) ((r.nextInt(25) - 12) * 0.1 + offset);
        }
        return Tensor.wrap(v, 0, Shape.of(dims));
    }

    static Tensor labels(long seed, int rows, int classes) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[rows];
        for (int i = 0; i < rows; i++) {
            v[i] = r.nextInt(classes);
        }
        return Tensor.of(v, rows);
    }
}
