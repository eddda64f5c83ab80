/**
 * The {@code brisk} command line: {@code BriskCommand} dispatches to the {@code train}, {@code bench},
 * {@code scaling} and {@code info} subcommands, and {@code Workloads} holds the reference workloads they run.
 *
 * <p>An application on top of {@code brisk-core} and {@code brisk-plot}, not a library API.
 */
package dev.brisk.cli;
