/**
 * Plots of training: {@link dev.brisk.plot.HistoryPlot} saves a {@code History}'s training and validation curves as
 * a PNG. A module of its own so that the charting library stays out of {@code brisk-core}.
 *
 * <p>Public API, on top of {@code brisk-core}.
 */
package dev.brisk.plot;
