import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * One core's read+write bandwidth over arrays from 256 KB to 128 MB (a vector loop scaling every float in place):
 * where the caches end on this machine. Run: java --add-modules jdk.incubator.vector tools/probes/Bandwidth.java
 */
public class Bandwidth {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    public static void main(String[] args) {
        for (int kb : new int[] {256, 512, 1024, 2048, 4096, 8192, 16384, 24576, 32768, 65536, 131072}) {
            int n = kb * 1024 / 4;
            float[] x = new float[n];
            for (int i = 0; i < n; i++) {
                x[i] = i;
            }
            long best = Long.MAX_VALUE;
            int reps = Math.max(5, 1024 * 256 / kb);
            for (int r = 0; r < reps; r++) {
                long t = System.nanoTime();
                for (int i = 0; i < n; i += S.length()) {
                    FloatVector.fromArray(S, x, i).mul(1.0001f).add(1f).intoArray(x, i);
                }
                long d = System.nanoTime() - t;
                if (r > 1) {
                    best = Math.min(best, d);
                }
            }
            System.out.printf("%6d KB: read+write %.1f GB/s%n", kb, 2.0 * n * 4 / best);
        }
    }
}
