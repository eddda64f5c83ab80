package dev.brisk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Settings}: defaults, a system property overriding one, the reported source, and today's tolerance. */
class SettingsTest {
    private final Map<String, String> saved = new HashMap<>();

    /** Sets (or with null, clears) a property for this test; {@link #restore} puts the old value back. */
    private void set(Setting setting, String value) {
        String key = setting.property();
        saved.putIfAbsent(key, System.getProperty(key));
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @AfterEach
    void restore() {
        saved.forEach((key, value) -> {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        });
    }

    @Test
    void everySettingHasAMeaningAndDefaultAndIsReportedOnce() {
        assertEquals(Setting.values().length, Settings.effective().size());
        for (Setting s : Setting.values()) {
            assertTrue(s.property() != null || s.env() != null, s.name());
            assertFalse(s.defaultValue().isBlank(), s.name());
            assertFalse(s.meaning().isBlank(), s.name());
            assertTrue(s.property() == null || s.property().startsWith("brisk."), s.name());
            assertTrue(s.env() == null || s.env().startsWith("BRISK_"), s.name());
        }
    }

    @Test
    void unsetPropertiesGiveTheDefaults() {
        for (Setting s : new Setting[] {Setting.KERNELS, Setting.FUSION, Setting.CONCURRENT, Setting.GEMM_GRID,
            Setting.WINOGRAD, Setting.WINOGRAD_TILE, Setting.CHUNKS, Setting.JIT_WARM_UP_STEPS}) {
            set(s, null);
            Settings.Effective e = Settings.effective(s);
            assertEquals(Settings.Source.DEFAULT, e.source(), s.name());
            assertEquals(s.defaultValue(), e.value(), s.name());
            assertEquals("default", e.origin());
        }
        assertNull(Settings.kernels());
        assertTrue(Settings.fusion());
        assertEquals("false", Settings.concurrent());
        assertTrue(Settings.gemmGrid());
        assertTrue(Settings.winograd());
        assertEquals(0, Settings.winogradTile());
        assertEquals(4, Settings.chunks());
        assertEquals(1, Settings.jitWarmUpSteps());
    }

    @Test
    void aPropertyOverridesTheDefaultAndIsReportedAsTheSource() {
        set(Setting.CHUNKS, "8");
        Settings.Effective e = Settings.effective(Setting.CHUNKS);
        assertEquals("8", e.value());
        assertEquals(Settings.Source.SYSTEM_PROPERTY, e.source());
        assertEquals("system property brisk.chunks", e.origin());
        assertEquals(8, Settings.chunks());

        set(Setting.FUSION, "FALSE");
        assertFalse(Settings.fusion());
        set(Setting.GEMM_GRID, "false");
        assertFalse(Settings.gemmGrid());
        set(Setting.WINOGRAD, "False");
        assertFalse(Settings.winograd());
        set(Setting.WINOGRAD_TILE, " 2 ");
        assertEquals(2, Settings.winogradTile());
        set(Setting.WINOGRAD_TILE, "AUTO");
        assertEquals(0, Settings.winogradTile());
        set(Setting.WINOGRAD_TILE, "6");
        assertThrows(IllegalArgumentException.class, Settings::winogradTile);
        assertTrue(Settings.effective(Setting.WINOGRAD_TILE).value().startsWith("invalid '6'"));
        set(Setting.WINOGRAD_TILE, null);
        set(Setting.CONCURRENT, "always");
        assertEquals("always", Settings.concurrent());
        set(Setting.KERNELS, " Scalar ");
        assertEquals("scalar", Settings.kernels());
        set(Setting.JIT_WARM_UP_STEPS, "0");
        assertEquals(0, Settings.jitWarmUpSteps());
    }

    @Test
    void aThreadPropertyWinsOverTheVariable() {
        set(Setting.THREADS, "3");
        assertEquals(3, Settings.threads());
        assertEquals("system property brisk.threads", Settings.effective(Setting.THREADS).origin());
        set(Setting.THREADS, "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Settings::threads);
        assertEquals("system property brisk.threads must be a positive integer, got '0'", e.getMessage());
    }

    @Test
    void aBlankPropertyCountsAsUnset() {
        set(Setting.CACHE_DIR, "  ");
        assertEquals(Settings.Source.ENVIRONMENT_VARIABLE == Settings.effective(Setting.CACHE_DIR).source(),
                System.getenv("BRISK_CACHE_DIR") != null && !System.getenv("BRISK_CACHE_DIR").isBlank());
        set(Setting.CACHE_DIR, " /tmp/cache ");
        assertEquals("/tmp/cache", Settings.cacheDir());
    }

    @Test
    void valuesAreToleratedAsBefore() {
        set(Setting.CHUNKS, "1000");
        assertEquals(64, Settings.chunks());
        assertEquals("64", Settings.effective(Setting.CHUNKS).value(), "reported as it takes effect");
        set(Setting.CHUNKS, "-3");
        assertEquals(1, Settings.chunks());
        set(Setting.CHUNKS, "many");
        assertEquals(4, Settings.chunks());
        set(Setting.JIT_WARM_UP_STEPS, "0x2");
        assertEquals(2, Settings.jitWarmUpSteps());
        set(Setting.FUSION, "no");
        assertTrue(Settings.fusion());
        set(Setting.KERNELS, "gpu");
        IllegalArgumentException k = assertThrows(IllegalArgumentException.class, Settings::kernels);
        assertEquals("system property brisk.kernels must be 'scalar' or 'vector', got 'gpu'", k.getMessage());
        assertTrue(Settings.effective(Setting.KERNELS).value().startsWith("invalid 'gpu': "),
                Settings.effective(Setting.KERNELS).value());
        set(Setting.CONCURRENT, "TRUE");
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class, Settings::concurrent);
        assertEquals("system property brisk.concurrent must be true, false or always, not 'TRUE'", c.getMessage());
        assertNotNull(Settings.effective(Setting.CONCURRENT).value());
    }
}
