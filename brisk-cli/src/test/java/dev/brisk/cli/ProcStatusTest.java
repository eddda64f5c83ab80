package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcStatusTest {
    private static final String SAMPLE = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            Tgid:\t4242
            VmPeak:\t 9876543 kB
            VmSize:\t 8765432 kB
            VmLck:\t       0 kB
            VmHWM:\t  524800 kB
            VmRSS:\t  400000 kB
            Threads:\t23
            """;

    @Test
    void parsesVmHwmInMib() {
        assertEquals(513, ProcStatus.peakRssMb(SAMPLE)); // 524800 kB = 512.5 MiB, rounded
    }

    @Test
    void missingOrMalformedGivesZero() {
        assertEquals(0, ProcStatus.peakRssMb("Name:\tjava\nVmRSS:\t 1000 kB\n"));
        assertEquals(0, ProcStatus.peakRssMb("VmHWM:\t lots kB\n"));
        assertEquals(0, ProcStatus.peakRssMb(""));
    }

    @Test
    void thisProcessOnLinux() {
        long mb = ProcStatus.peakRssMb();
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertTrue(mb > 0, "VmHWM of a running JVM");
        }
    }
}
