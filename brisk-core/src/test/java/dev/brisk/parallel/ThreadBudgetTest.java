package dev.brisk.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The budget's default by machine size, the API override before the default, and the budget's limits. */
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

    @Test
    void anAbsurdBudgetIsRefusedFromEverySourceAndNamesIt() {
        int max = ThreadBudget.maxThreads();
        assertEquals(ThreadBudget.MAX_PER_PROCESSOR * Runtime.getRuntime().availableProcessors(), max);
        ThreadBudget.set(max);
        assertEquals(max, ThreadBudget.threads());
        IllegalArgumentException api = assertThrows(IllegalArgumentException.class, () -> ThreadBudget.set(100_000));
        assertTrue(api.getMessage().contains("100000") && api.getMessage().contains("at most " + max),
                api.getMessage());
        ThreadBudget.reset();
        System.setProperty(ThreadBudget.PROPERTY, "100000");
        try {
            IllegalArgumentException property = assertThrows(IllegalArgumentException.class, ThreadBudget::threads);
            assertTrue(property.getMessage().contains("brisk.threads"), property.getMessage());
        } finally {
            System.clearProperty(ThreadBudget.PROPERTY);
            ThreadBudget.reset();
        }
    }
}
