package dev.brisk.plot;

import dev.brisk.callbacks.History;
import dev.brisk.io.AtomicFiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Training curves of a {@link History} as a PNG image: one chart per quantity (the loss first, then each metric in
 * the History's order; not the utilisation figures {@code cpu_util} and {@code input_wait}), each with its
 * training curve and, when the History has one, its validation curve ({@code val_} values) against the epoch
 * (from 1). Charts are laid out two to a row. Drawing is off screen, so no
 * display is needed ({@code java.awt.headless} is set to true unless it was set already).
 */
public final class HistoryPlot {
    /** Size of one chart in the default layout. */
    public static final int PANEL_WIDTH = 640;
    public static final int PANEL_HEIGHT = 420;
    /** Charts per row. */
    public static final int COLUMNS = 2;

    private static final Color TRAINING = new Color(0x1F, 0x77, 0xB4);
    private static final Color VALIDATION = new Color(0xFF, 0x7F, 0x0E);
    private static final String VAL = "val_";
    /** Per-epoch figures about the machine rather than the learning (the progress bar and TensorBoard show them). */
    private static final java.util.Set<String> NOT_CURVES = java.util.Set.of("cpu_util", "input_wait");

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private HistoryPlot() {
    }

    /** One chart: a quantity's training values and validation values (either may be empty), one per epoch. */
    record Panel(String name, List<Double> training, List<Double> validation) {
    }

    /** Saves the curves to {@code png} at the default size ({@link #defaultWidth}, {@link #defaultHeight}). */
    public static void save(History history, Path png) throws IOException {
        save(history, png, defaultWidth(history), defaultHeight(history));
    }

    /** Saves the curves to {@code png} as an image of {@code width} x {@code height} pixels; atomically. */
    public static void save(History history, Path png, int width, int height) throws IOException {
        BufferedImage image = render(history, width, height);
        try {
            AtomicFiles.write(png, out -> {
                if (!ImageIO.write(image, "png", out)) {
                    throw new IOException("no PNG writer in this Java runtime");
                }
            });
        } catch (IOException e) {
            throw new IOException("cannot write the training curves to " + png + ": " + e.getMessage(), e);
        }
    }

    /** Width of the default layout: up to {@link #COLUMNS} charts side by side. */
    public static int defaultWidth(History history) {
        return PANEL_WIDTH * Math.min(COLUMNS, Math.max(1, panels(history).size()));
    }

    /** Height of the default layout: one row of charts per {@link #COLUMNS} quantities. */
    public static int defaultHeight(History history) {
        int n = Math.max(1, panels(history).size());
        return PANEL_HEIGHT * ((n + COLUMNS - 1) / COLUMNS);
    }

    /** Draws the curves into a new image. */
    public static BufferedImage render(History history, int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("image size must be positive, got " + width + " x " + height);
        }
        List<Panel> panels = panels(history);
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("the history has no finished epoch to plot");
        }
        List<Integer> epochs = history.epochs();
        int cols = Math.min(COLUMNS, panels.size());
        int rows = (panels.size() + cols - 1) / cols;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            double w = (double) width / cols;
            double h = (double) height / rows;
            for (int i = 0; i < panels.size(); i++) {
                JFreeChart chart = chart(panels.get(i), epochs);
                chart.draw(g, new Rectangle2D.Double((i % cols) * w, (i / cols) * h, w, h));
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /** The charts to draw: "loss" first, then the other quantities in the History's order. */
    static List<Panel> panels(History history) {
        Map<String, List<Double>> series = history.asMap();
        Map<String, Panel> byName = new LinkedHashMap<>();
        for (String key : series.keySet()) {
            String name = key.startsWith(VAL) ? key.substring(VAL.length()) : key;
            if (NOT_CURVES.contains(name)) {
                continue;
            }
            byName.computeIfAbsent(name, n -> new Panel(n, series.getOrDefault(n, List.of()),
                    series.getOrDefault(VAL + n, List.of())));
        }
        List<Panel> out = new ArrayList<>();
        if (byName.containsKey("loss")) {
            out.add(byName.remove("loss"));
        }
        out.addAll(byName.values());
        return out;
    }

    private static JFreeChart chart(Panel p, List<Integer> epochs) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int index = 0;
        if (!p.training().isEmpty()) {
            data.addSeries(series("training", p.training(), epochs));
            style(renderer, index++, TRAINING);
        }
        if (!p.validation().isEmpty()) {
            data.addSeries(series("validation", p.validation(), epochs));
            style(renderer, index, VALIDATION);
        }
        NumberAxis x = new NumberAxis("epoch");
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setAutoRangeIncludesZero(false);
        NumberAxis y = new NumberAxis(p.name());
        y.setAutoRangeIncludesZero(false);
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
        JFreeChart chart = new JFreeChart(p.name(), new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        TextTitle title = chart.getTitle();
        title.setPaint(Color.DARK_GRAY);
        return chart;
    }

    /** One curve: x = epoch (from 1); non-finite values (a NaN loss) are left out rather than breaking the axis. */
    private static XYSeries series(String name, List<Double> values, List<Integer> epochs) {
        XYSeries s = new XYSeries(name, false, true);
        for (int i = 0; i < values.size(); i++) {
            double v = values.get(i);
            if (Double.isFinite(v)) {
                s.add(i < epochs.size() ? epochs.get(i) + 1 : i + 1, v);
            }
        }
        return s;
    }

    private static void style(XYLineAndShapeRenderer r, int series, Color color) {
        r.setSeriesPaint(series, color);
        r.setSeriesStroke(series, new BasicStroke(2f));
    }
}
