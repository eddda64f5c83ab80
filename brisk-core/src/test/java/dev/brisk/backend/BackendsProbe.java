package dev.brisk.backend;

/** Prints the default backend's name; {@link BackendsTest} runs it in a JVM of its own. */
public final class BackendsProbe {
    private BackendsProbe() {
    }

    public static void main(String[] args) {
        Kernels k = Backends.get();
        // Exercise a kernel so that a backend that loads but cannot run fails here too.
        float[] c = new float[1];
        k.gemm(false, false, 1, 1, 1, new float[] {2}, 0, 1, new float[] {3}, 0, 1, c, 0, 1, false);
        if (c[0] != 6) {
            throw new AssertionError("gemm gave " + c[0]);
        }
        System.out.println(k.name());
    }
}
