package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brisk.callbacks.History;
import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.ForwardingDataset;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Time spent waiting for batches is counted: per epoch in History, per step in the profile. */
class InputWaitTest {
    private static final long SLEEP_MS = 5;

    @TempDir
    Path tmp;

    /** A dataset whose every batch takes at least {@link #SLEEP_MS} to arrive, like a slow input pipeline. */
    private static final class SlowDataset extends ForwardingDataset {
        SlowDataset(Dataset inner) {
            super(inner);
        }

        @Override
        public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed) {
            return () -> {
                Iterator<Batch> it = inner.batches(batchSize, shuffle, seed).iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Batch next() {
                        try {
                            Thread.sleep(SLEEP_MS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return it.next();
                    }
                };
            };
        }
    }

    @Test
    void slowInputShowsInHistoryAndInTheProfile() throws IOException {
        Model m = ProfiledFitTest.mlp();
        Tensor[] xy = ProfiledFitTest.data();
        Dataset slow = new SlowDataset(new InMemoryDataset(xy[0], xy[1]));
        Path trace = tmp.resolve("slow.json");
        History h = m.fit(slow, Fit.epochs(2).batchSize(ProfiledFitTest.BATCH).verbose(0).profile(trace, 2, 3));
        for (double share : h.get("input_wait")) {
            assertTrue(share > 0 && share <= 1, "input wait share " + share);
        }
        for (int step = 2; step <= 3; step++) {
            JsonNode input = ProfiledFitTest.inCategory(ProfiledFitTest.events(trace), "input", step).get(0);
            assertEquals("input wait", input.get("name").asText());
            // a lower bound the sleep guarantees, not a timing measurement
            assertTrue(input.get("dur").decimalValue().doubleValue() >= SLEEP_MS * 1000 / 2, input.toString());
        }
        Profile p = m.lastProfile();
        assertTrue(p.inputWaitShare() > 0 && p.inputWaitShare() <= 1, "profile input wait " + p.inputWaitShare());
    }
}
