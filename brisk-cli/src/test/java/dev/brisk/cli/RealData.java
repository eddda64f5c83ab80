package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.config.Settings;
import dev.brisk.data.FashionMnist;
import java.nio.file.Files;

/** The rule of the tests on the real Fashion-MNIST: skipped where it is not installed, unless CI requires it. */
final class RealData {
    private RealData() {
    }

    /**
     * Aborts the calling test (skipped) when {@link FashionMnist#DEFAULT_DIR} is missing, or fails it when
     * {@code BRISK_REQUIRE_DATA=1} (set by CI).
     */
    static void assumeInstalled() {
        boolean present = Files.isDirectory(FashionMnist.DEFAULT_DIR);
        if (!present && Settings.requireData()) {
            fail("BRISK_REQUIRE_DATA=1 but " + FashionMnist.DEFAULT_DIR + " is missing: "
                    + "apt-get install dataset-fashion-mnist");
        }
        assumeTrue(present, "Fashion-MNIST not installed at " + FashionMnist.DEFAULT_DIR);
    }
}
