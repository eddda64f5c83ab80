package dev.brisk.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReservationTest {

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void reservedThreadsAreTakenFromTheComputeThreads() {
        ThreadBudget.set(4);
        assertEquals(4, ThreadBudget.computeThreads());
        try (Reservation a = ThreadBudget.reserve(1); Reservation b = ThreadBudget.reserve(1)) {
            assertEquals(2, ThreadBudget.computeThreads());
            assertEquals(2, Parallel.threads());
            a.resize(3);
            assertEquals(4, ThreadBudget.reserved());
            assertEquals(1, ThreadBudget.computeThreads(), "compute keeps one thread");
            assertEquals(4, ThreadBudget.threads(), "the budget itself does not change");
            b.close();
            b.close();
            assertEquals(1, ThreadBudget.computeThreads());
            a.resize(0);
            assertEquals(4, ThreadBudget.computeThreads());
        }
        assertEquals(0, ThreadBudget.reserved());
    }

    @Test
    void kernelsStillRunWhileThreadsAreReserved() {
        ThreadBudget.set(3);
        int[] hits = new int[1000];
        try (Reservation r = ThreadBudget.reserve(2)) {
            Parallel.forRange(1000, 10, (from, to) -> {
                for (int i = from; i < to; i++) {
                    hits[i]++;
                }
            });
            assertEquals(2, r.threads());
        }
        for (int h : hits) {
            assertEquals(1, h);
        }
    }

    @Test
    void negativeReservationsAreRefused() {
        assertEquals("cannot reserve a negative number of threads: -1",
                assertThrows(IllegalArgumentException.class, () -> ThreadBudget.reserve(-1)).getMessage());
    }
}
