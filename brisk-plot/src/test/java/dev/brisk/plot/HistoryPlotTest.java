package dev.brisk.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Training curves render to a PNG that decodes, at the size asked, with or without validation curves. */
class HistoryPlotTest {
    @TempDir
    Path dir;

    /** A History as fit leaves it, from per-epoch logs. */
    private static History history(boolean validation, int epochs) {
        History h = new History();
        for (int e = 0; e < epochs; e++) {
            Map<String, Double> logs = new LinkedHashMap<>();
            logs.put("loss", 1.0 / (e + 1));
            logs.put("accuracy", 0.5 + 0.1 * e);
            if (validation) {
                logs.put("val_loss", 1.2 / (e + 1));
                logs.put("val_accuracy", 0.45 + 0.1 * e);
            }
            h.onEpochEnd(e, logs);
        }
        return h;
    }

    @Test
    void savesADecodablePngOfTheDefaultSize() throws IOException {
        History h = history(true, 5);
        Path png = dir.resolve("out/curves.png");
        HistoryPlot.save(h, png);
        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img, "ImageIO decodes it");
        assertEquals(2 * HistoryPlot.PANEL_WIDTH, img.getWidth(), "loss and accuracy side by side");
        assertEquals(HistoryPlot.PANEL_HEIGHT, img.getHeight());
        assertTrue(hasColour(img), "the curves are drawn in colour");
        try (Stream<Path> left = Files.list(png.getParent())) {
            assertEquals(List.of(png), left.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void aSavedChartHasThePermissionsOfANewlyCreatedFile() throws IOException {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
                "POSIX permissions");
        // the process umask applies, as for any new file (it used to be 0600 whatever the umask)
        Path reference = Files.createFile(dir.resolve("reference"));
        Path png = dir.resolve("curves.png");
        HistoryPlot.save(history(false, 2), png);
        assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(reference)),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(png)));
    }

    @Test
    void savesTheSizeAsked() throws IOException {
        Path png = dir.resolve("small.png");
        HistoryPlot.save(history(true, 3), png, 500, 300);
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(500, img.getWidth());
        assertEquals(300, img.getHeight());
    }

    @Test
    void trainingOnlyWhenThereIsNoValidation() throws IOException {
        History h = history(false, 4);
        List<HistoryPlot.Panel> panels = HistoryPlot.panels(h);
        assertEquals(List.of("loss", "accuracy"), panels.stream().map(HistoryPlot.Panel::name).toList());
        assertTrue(panels.stream().allMatch(p -> p.validation().isEmpty()));
        Path png = dir.resolve("train-only.png");
        HistoryPlot.save(h, png);
        assertNotNull(ImageIO.read(png.toFile()));
    }

    @Test
    void panelsPairTrainingWithValidationAndPutLossFirst() {
        History h = new History();
        h.onEpochEnd(0, new LinkedHashMap<>(Map.of("accuracy", 0.5)));
        Map<String, Double> logs = new LinkedHashMap<>();
        logs.put("accuracy", 0.5);
        logs.put("loss", 1.0);
        logs.put("val_loss", 2.0);
        logs.put("val_top5", 0.9);
        History h2 = new History();
        h2.onEpochEnd(0, logs);
        h2.onEpochEnd(1, logs);
        List<HistoryPlot.Panel> panels = HistoryPlot.panels(h2);
        assertEquals(List.of("loss", "accuracy", "top5"), panels.stream().map(HistoryPlot.Panel::name).toList());
        assertEquals(List.of(1.0, 1.0), panels.get(0).training());
        assertEquals(List.of(2.0, 2.0), panels.get(0).validation());
        assertTrue(panels.get(2).training().isEmpty(), "a validation-only quantity has no training curve");
        assertEquals(1, HistoryPlot.panels(h).size());
    }

    @Test
    void oneEpochAndNanValuesStillRender() {
        History h = new History();
        h.onEpochEnd(0, new LinkedHashMap<>(Map.of("loss", Double.NaN)));
        BufferedImage img = HistoryPlot.render(h, 320, 200);
        assertEquals(320, img.getWidth());
        History one = history(true, 1);
        assertEquals(200, HistoryPlot.render(one, 400, 200).getHeight());
    }

    @Test
    void anEmptyHistoryOrABadSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> HistoryPlot.render(new History(), 100, 100));
        assertThrows(IllegalArgumentException.class, () -> HistoryPlot.render(history(true, 2), 0, 100));
    }

    @Test
    void anUnwritablePathIsNamed() throws IOException {
        Path file = Files.writeString(dir.resolve("taken"), "a file");
        Path png = file.resolve("curves.png");
        IOException e = assertThrows(IOException.class, () -> HistoryPlot.save(history(true, 2), png));
        assertTrue(e.getMessage().contains(png.toString()), e.getMessage());
    }

    @Test
    void drawsWithoutADisplay() {
        assertTrue(java.awt.GraphicsEnvironment.isHeadless());
        assertFalse(HistoryPlot.panels(history(true, 2)).isEmpty());
    }

    private static boolean hasColour(BufferedImage img) {
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xFF;
                int g = (rgb >> 8) & 0xFF;
                int b = rgb & 0xFF;
                if (Math.abs(r - g) > 60 || Math.abs(g - b) > 60) {
                    return true;
                }
            }
        }
        return false;
    }
}
