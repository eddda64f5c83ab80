package dev.brisk.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected strings are what Python's str.format gives for the same template and values. */
class FileNameTemplateTest {
    private static String format(String template, Map<String, ? extends Number> values) {
        return new FileNameTemplate(template).format(values);
    }

    @Test
    void epochFieldsPadLikePython() {
        Map<String, Number> epoch7 = Map.of("epoch", 7);
        assertEquals("e7", format("e{epoch}", epoch7));
        assertEquals("e07", format("e{epoch:02d}", epoch7));
        assertEquals("e  7", format("e{epoch:3d}", epoch7));
        assertEquals("e007", format("e{epoch:03d}", epoch7));
        assertEquals("e1234", format("e{epoch:02d}", Map.of("epoch", 1234)));
        assertEquals("e-003", format("e{epoch:04d}", Map.of("epoch", -3)));
    }

    @Test
    void logValuesTakeFloatSpecsLikePython() {
        Map<String, Number> logs = Map.of("epoch", 3, "val_loss", 0.34567, "accuracy", 0.9, "tiny", 1.5e-5,
                "big", 2.5e10, "neg", -1.25);
        assertEquals("0.35", format("{val_loss:.2f}", logs));
        assertEquals("0.345670", format("{val_loss:f}", logs));
        assertEquals("3.46e-01", format("{val_loss:.2e}", logs));
        assertEquals("0.34567", format("{val_loss:g}", logs));
        assertEquals("0.3457", format("{val_loss:.4g}", logs));
        assertEquals("0.9", format("{accuracy:g}", logs));
        assertEquals("1.5e-05", format("{tiny:g}", logs));
        assertEquals("2.5e+10", format("{big:g}", logs));
        assertEquals("0.34567", format("{val_loss:}", logs));
        assertEquals("  0.90", format("{accuracy:6.2f}", logs));
        assertEquals("000.90", format("{accuracy:06.2f}", logs));
        assertEquals("-01.25", format("{neg:06.2f}", logs));
        assertEquals("ckpt-03-0.3457.brisk", format("ckpt-{epoch:02d}-{val_loss:.4f}.brisk", logs));
    }

    @Test
    void badFieldsAreNamed() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> format("m-{val_acc:.2f}", Map.of("epoch", 1, "val_accuracy", 0.5)));
        assertTrue(missing.getMessage().contains("{val_acc}"), missing.getMessage());
        assertTrue(missing.getMessage().contains("[epoch, val_accuracy]"), missing.getMessage());

        IllegalArgumentException floatAsInt = assertThrows(IllegalArgumentException.class,
                () -> format("m-{loss:02d}", Map.of("loss", 0.5)));
        assertTrue(floatAsInt.getMessage().contains("whole number"), floatAsInt.getMessage());

        IllegalArgumentException badSpec = assertThrows(IllegalArgumentException.class,
                () -> format("m-{loss:>8s}", Map.of("loss", 0.5)));
        assertTrue(badSpec.getMessage().contains("unsupported format spec '>8s'"), badSpec.getMessage());
    }
}
