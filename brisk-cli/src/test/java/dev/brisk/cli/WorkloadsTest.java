package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
    @Test
    void parameterCountsMatchWorkloadsMd() {
        // W1: 784*512+512 + 512*512+512 + 512*10+10
        assertEquals(669_706, Workload.W1.model().parameterCount());
        // W2: (9*1*32+32) + (9*32*64+64) + (1600*128+128) + (128*10+10)
        assertEquals(225_034, Workload.W2.model().parameterCount());
    }

    @Test
    void parseIgnoresCaseAndNamesValidIds() {
        assertEquals(Workload.W1, Workload.parse("w1"));
        assertEquals(Workload.W2, Workload.parse("W2"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workload.parse("w9"));
        assertTrue(e.getMessage().contains("w1, w2"), e.getMessage());
    }
}
