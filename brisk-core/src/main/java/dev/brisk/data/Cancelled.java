package dev.brisk.data;

/** Thrown inside a pipeline's own threads when the pass they serve was closed; never reaches the user. */
final class Cancelled extends RuntimeException {
    Cancelled() {
        super("pipeline pass closed", null, false, false);
    }
}
