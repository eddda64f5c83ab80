package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostCpuTest {
    /** A 2-vCPU KVM guest's /proc/stat (shortened): user nice system idle iowait irq softirq steal guest guest_nice. */
    private static final String SAMPLE = """
            cpu  4194203 0 270973 6977319 4182 0 1265 61096 500 0
            cpu0 2071646 0 133202 3517521 698 0 209 30773 250 0
            cpu1 2122557 0 137771 3459798 3484 0 1056 30323 250 0
            intr 123456789 0 9 0 0
            ctxt 987654321
            btime 1764748800
            processes 123456
            procs_running 2
            procs_blocked 0
            """;

    @Test
    void parsesTheAggregateLineWithoutCountingGuestTwice() {
        HostCpu cpu = HostCpu.parse(SAMPLE);
        assertEquals(4194203L + 270973 + 6977319 + 4182 + 1265 + 61096, cpu.total());
        assertEquals(61096, cpu.steal());
    }

    @Test
    void olderKernelsWithoutStealCountItAsZero() {
        HostCpu seven = HostCpu.parse("cpu  100 2 30 400 5 6 7\ncpu0 100 2 30 400 5 6 7\n"); // 2.6.0-2.6.10
        assertEquals(new HostCpu(550, 0), seven);
        HostCpu four = HostCpu.parse("cpu  100 2 30 400\n"); // 2.4
        assertEquals(new HostCpu(532, 0), four);
        assertEquals(0.0, four.stealFraction());
    }

    @Test
    void missingOrMalformedIsUnknown() {
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse(""));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("cpu0 1 2 3 4 5 6 7 8\nintr 1\n")); // no aggregate line
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("cpu  1 2 3\n"));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("cpu  1 2 three 4 5 6 7 8\n"));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parse("cpu  1 2 3 4 5 6 7 -8\n"));
        assertFalse(HostCpu.UNKNOWN.known());
        assertTrue(Double.isNaN(HostCpu.UNKNOWN.stealFraction()));
        assertEquals("-", HostCpu.UNKNOWN.stealPercent());
    }

    @Test
    void theDifferenceOfTwoSnapshotsGivesTheIntervalsStealFraction() {
        HostCpu before = HostCpu.parse("cpu  1000 0 100 5000 10 0 5 200 300 0\n");
        // 1430 user, 600 steal, 70 system, 100 idle in between (a busy two-vCPU guest on a crowded host).
        HostCpu after = HostCpu.parse("cpu  2430 0 170 5100 10 0 5 800 1730 0\n");
        HostCpu interval = after.since(before);
        assertEquals(new HostCpu(2200, 600), interval);
        assertEquals(600.0 / 2200, interval.stealFraction(), 1e-12);
        assertEquals("27.3%", interval.stealPercent());
    }

    @Test
    void unknownSpreadsThroughDifferencesAndSums() {
        HostCpu known = new HostCpu(100, 3);
        assertEquals(HostCpu.UNKNOWN, known.since(HostCpu.UNKNOWN));
        assertEquals(HostCpu.UNKNOWN, HostCpu.UNKNOWN.since(known));
        assertEquals(HostCpu.UNKNOWN, new HostCpu(90, 3).since(known)); // counters never go back
        assertEquals(HostCpu.UNKNOWN, known.plus(HostCpu.UNKNOWN));
        assertEquals(new HostCpu(150, 4), known.plus(new HostCpu(50, 1)));
    }

    @Test
    void anIntervalShorterThanAJiffyHasNoFraction() {
        HostCpu none = new HostCpu(0, 0);
        assertTrue(Double.isNaN(none.stealFraction()));
        assertEquals("-", none.stealPercent());
    }

    @Test
    void thisMachineOnLinux() {
        HostCpu first = HostCpu.now();
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertTrue(first.known(), "/proc/stat on Linux");
            HostCpu interval = HostCpu.now().since(first);
            assertTrue(interval.known() && interval.steal() <= interval.total(), interval.toString());
        }
    }
}
