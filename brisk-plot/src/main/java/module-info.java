/**
 * Brisk's charts: {@code HistoryPlot} draws the curves of a training {@code History} as a PNG, with JFreeChart. A
 * module of its own so that {@code brisk-core} needs no charting library.
 */
module dev.brisk.plot {
    requires dev.brisk.core;
    // HistoryPlot draws with java.awt and writes the PNG with javax.imageio.
    requires java.desktop;
    // JFreeChart has no module descriptor; its jar names the automatic module org.jfree.jfreechart.
    requires org.jfree.jfreechart;

    exports dev.brisk.plot;
}
