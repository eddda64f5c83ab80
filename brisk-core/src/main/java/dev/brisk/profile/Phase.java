package dev.brisk.profile;

/** The phases of a training step that {@link StepTimeline} marks, each a span of a profiled step. */
public enum Phase {
    /** Waiting for the next batch from the input pipeline. */
    INPUT("input wait", Span.Category.INPUT),
    /** Running the callbacks' per-batch hooks. */
    CALLBACKS("callbacks", Span.Category.HOST),
    /** The training step itself: forward, backward and optimizer update. */
    COMPUTE("train step", Span.Category.COMPUTE),
    /** Updating the metrics with the step's outputs. */
    METRICS("metrics", Span.Category.HOST);

    private final String spanName;
    private final Span.Category category;

    Phase(String spanName, Span.Category category) {
        this.spanName = spanName;
        this.category = category;
    }

    String spanName() {
        return spanName;
    }

    Span.Category category() {
        return category;
    }
}
