/**
 * Brisk's settings: every {@code brisk.*} system property and {@code BRISK_*} environment variable, read in one
 * place ({@link dev.brisk.config.Settings}), each with its default and meaning ({@link dev.brisk.config.Setting}).
 * The lowest layer: it imports only {@code java.*}, so that every other package may read its settings here.
 */
package dev.brisk.config;
