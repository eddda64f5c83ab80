package dev.brisk.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The budget's default by machine size, and the API override before the default. */
class ThreadBudgetTest {
    @AfterEach
    void reset() {
        ThreadBudget.reset();
    }

    @Test
    void smallMachinesUseEveryCoreLargeOnesLeaveOne() {
        assertEquals(1, ThreadBudget.defaultThreads(1));
        assertEquals(2, ThreadBudget.defaultThreads(2));
        assertEquals(8, ThreadBudget.defaultThreads(8));
        assertEquals(ThreadBudget.SPARE_CORE_FROM - 1, ThreadBudget.defaultThreads(ThreadBudget.SPARE_CORE_FROM - 1));
        assertEquals(ThreadBudget.SPARE_CORE_FROM - 1, ThreadBudget.defaultThreads(ThreadBudget.SPARE_CORE_FROM));
        assertEquals(15, ThreadBudget.defaultThreads(16));
        assertEquals(63, ThreadBudget.defaultThreads(64));
    }

    @Test
    void theApiOverridesTheDefaultAndNamesItself() {
        ThreadBudget.set(3);
        assertEquals(3, ThreadBudget.threads());
        assertEquals("3 threads (API)", ThreadBudget.resolve().toString());
        assertThrows(IllegalArgumentException.class, () -> ThreadBudget.set(0));
    }
}
