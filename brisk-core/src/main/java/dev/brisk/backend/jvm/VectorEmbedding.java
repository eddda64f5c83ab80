package dev.brisk.backend.jvm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The embedding lookup and its table gradient with the Vector API. The lookup copies rows (the same bits as the
 * scalar kernel's element loop); the gradient adds each dy row into its id's row a vector at a time, in position
 * order, so each element is the same float sum in the same order as {@link ScalarKernels#embeddingGrad}. Both run on
 * the calling thread: a row copy or add is a short memory-bound loop, and one thread keeps the sum order of a
 * repeated id without partial sums.
 */
final class VectorEmbedding {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    private VectorEmbedding() {
    }

    static void lookup(float[] table, int tableOff, int vocab, int dim, float[] ids, int idsOff, int count,
                       float[] out, int outOff) {
        for (int p = 0; p < count; p++) {
            int id = ScalarKernels.tokenId(ids, idsOff, p, vocab);
            System.arraycopy(table, tableOff + id * dim, out, outOff + p * dim, dim);
        }
    }

    static void gradient(float[] dy, int dyOff, float[] ids, int idsOff, int count, float[] dTable, int dTableOff,
                         int vocab, int dim) {
        Arrays.fill(dTable, dTableOff, dTableOff + vocab * dim, 0f);
        int lanes = SPECIES.length();
        int whole = dim - dim % lanes;
        for (int p = 0; p < count; p++) {
            int row = dTableOff + ScalarKernels.tokenId(ids, idsOff, p, vocab) * dim;
            int src = dyOff + p * dim;
            int j = 0;
            for (; j < whole; j += lanes) {
                FloatVector.fromArray(SPECIES, dTable, row + j)
                        .add(FloatVector.fromArray(SPECIES, dy, src + j))
                        .intoArray(dTable, row + j);
            }
            for (; j < dim; j++) {
                dTable[row + j] += dy[src + j];
            }
        }
    }
}
