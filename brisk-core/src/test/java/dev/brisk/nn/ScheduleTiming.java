package dev.brisk.nn;

import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Step time of the W1 and W2 models' compiled train plans with instructions one by one and with independent ones
 * side by side ({@code brisk.concurrent}), in one JVM: blocks of steps of each plan alternate, so that the noise of
 * a shared machine falls on both alike (a main, not a test). Run with
 * {@code java --add-modules jdk.incubator.vector -cp target/classes:target/test-classes dev.brisk.nn.ScheduleTiming
 * [threads] [rounds]}.
 */
public final class ScheduleTiming {
    private ScheduleTiming() {
    }

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        ThreadBudget.set(threads);
        compare("W1 MLP", () -> Sequential.of(
                Layers.input(784),
                Layers.dense(512, Activation.RELU),
                Layers.dense(512, Activation.RELU),
                Layers.dense(10)), 784, rounds, 40);
        compare("W2 CNN", () -> Sequential.of(
                Layers.input(28, 28, 1),
                Layers.conv2d(32, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.conv2d(64, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(128, Activation.RELU),
                Layers.dense(10)), 28, rounds, 6);
    }

    private static void compare(String name, Supplier<Model> build, int width, int rounds, int steps) {
        String[] modes = {"false", "always", "true"};
        Plan[] plans = new Plan[modes.length];
        for (int i = 0; i < modes.length; i++) {
            System.setProperty("brisk.concurrent", modes[i]);
            plans[i] = plan(build, width);
        }
        System.clearProperty("brisk.concurrent");
        // Warm-up, which also lets the trial groups decide.
        for (int w = 0; w < 200; w++) {
            for (Plan p : plans) {
                p.run();
            }
        }
        double[][] perStep = new double[modes.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < modes.length; i++) {
                long start = System.nanoTime();
                for (int s = 0; s < steps; s++) {
                    plans[i].run();
                }
                perStep[i][r] = (System.nanoTime() - start) / 1e6 / steps;
            }
        }
        System.out.printf("%s, %d thread(s), %d rounds of %d steps:%n", name, ThreadBudget.threads(), rounds, steps);
        for (int i = 0; i < modes.length; i++) {
            double[] t = perStep[i].clone();
            Arrays.sort(t);
            System.out.printf("  brisk.concurrent=%-6s median %.3f ms/step (best %.3f), groups side by side: %d, "
                    + "ratio to false %.3f%n", modes[i], t[t.length / 2], t[0], plans[i].concurrentGroups(),
                    ratio(perStep[i], perStep[0]));
        }
        System.out.print(plans[2].describeSchedule().indent(4));
    }

    /** Median of the per-round ratios: each round's plans ran side by side in time. */
    private static double ratio(double[] a, double[] b) {
        double[] q = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            q[i] = a[i] / b[i];
        }
        Arrays.sort(q);
        return q[q.length / 2];
    }

    private static Plan plan(Supplier<Model> build, int width) {
        RandomSeed.set(1);
        Model model = build.get();
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
        Tensor[] xy = width == 784 ? EagerVsCompiledTest.data(256, 784) : EagerVsCompiledTest.data(256, 28, 28, 1);
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(128).verbose(0));
        return model.trainPlan(128);
    }
}
