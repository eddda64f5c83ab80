package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which steps a profile covers by default, and which windows are refused. */
class ProfileWindowTest {
    @Test
    void defaultIsFiveStepsAfterWarmUpOrTheLastFiveOfAShorterFit() {
        assertEquals(new ProfileWindow(51, 55), ProfileWindow.afterWarmup(2345));
        assertEquals(new ProfileWindow(51, 55), ProfileWindow.afterWarmup(55));
        assertEquals(new ProfileWindow(50, 54), ProfileWindow.afterWarmup(54));
        assertEquals(new ProfileWindow(1, 3), ProfileWindow.afterWarmup(3));
        assertEquals(new ProfileWindow(1, 1), ProfileWindow.afterWarmup(1));
    }

    @Test
    void coversBothEnds() {
        ProfileWindow w = new ProfileWindow(3, 5);
        assertFalse(w.covers(2));
        assertTrue(w.covers(3) && w.covers(5));
        assertFalse(w.covers(6));
        assertEquals("3-5", w.toString());
        assertEquals("7", new ProfileWindow(7, 7).toString());
    }

    @Test
    void emptyOrNonPositiveWindowsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ProfileWindow(0, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ProfileWindow(5, 4));
        assertTrue(e.getMessage().contains("5-4"), e.getMessage());
    }
}
