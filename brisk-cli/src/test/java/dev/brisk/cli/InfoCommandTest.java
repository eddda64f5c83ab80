package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.config.Setting;
import dev.brisk.data.UnpackedCache;
import dev.brisk.parallel.ThreadBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brisk info}: what Brisk found on this machine, one line each. */
class InfoCommandTest {
    @TempDir
    Path tmp;

    @Test
    void reportsEachPartAndAMissingDataDirectory() {
        CliRun r = CliRun.run("info", "--data", tmp.resolve("nowhere").toString());
        assertEquals(0, r.code(), r.err());
        for (String part : new String[] {"brisk ", "java ", "vector API ", "thread budget ", "kernels ", "max heap ",
            "fashion-mnist  not found at", "data cache "}) {
            assertTrue(r.out().contains(part), part + " in:\n" + r.out());
        }
    }

    @Test
    void printsEverySettingWithItsValueAndSource() {
        CliRun r = CliRun.run("info", "--data", tmp.resolve("nowhere").toString());
        assertEquals(0, r.code(), r.err());
        for (Setting s : Setting.values()) {
            String name = s.property() != null ? s.property() : s.env();
            assertTrue(r.out().contains("  " + name), name + " in:\n" + r.out());
        }
    }

    @Test
    void aSettingLineSaysWhereTheValueCameFrom() {
        String saved = System.getProperty(Setting.CHUNKS.property());
        System.setProperty(Setting.CHUNKS.property(), "8");
        try {
            String line = InfoCommand.settings().get(Setting.CHUNKS.ordinal());
            assertTrue(line.startsWith("brisk.chunks "), line);
            assertTrue(line.endsWith(" 8 (system property brisk.chunks)"), line);
        } finally {
            if (saved == null) {
                System.clearProperty(Setting.CHUNKS.property());
            } else {
                System.setProperty(Setting.CHUNKS.property(), saved);
            }
        }
        String threads = InfoCommand.settings().get(Setting.THREADS.ordinal());
        assertTrue(threads.startsWith("brisk.threads, BRISK_THREADS "), threads);
    }

    @Test
    void aThreadBudgetSetInCodeShowsAsApi() {
        ThreadBudget.set(3);
        try {
            String threads = InfoCommand.settings().get(Setting.THREADS.ordinal());
            assertTrue(threads.endsWith(" 3 (API)"), threads);
        } finally {
            ThreadBudget.reset();
        }
    }

    @Test
    void theDataCacheLineCountsTheCopies() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cache"));
        Files.write(dir.resolve("a"), new byte[1_500_000]);
        Files.write(dir.resolve("b"), new byte[500_000]);
        String line = InfoCommand.dataCache(new UnpackedCache(dir));
        assertTrue(line.startsWith(dir + " (2 files, 2.0 MB;"), line);
        assertTrue(InfoCommand.dataCache(null).startsWith("off"), InfoCommand.dataCache(null));
    }
}
