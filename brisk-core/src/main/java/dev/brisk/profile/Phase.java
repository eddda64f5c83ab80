package dev.brisk.profile;

/** The phases of a training step that {@link StepTimeline} marks, each a span of a profiled step. */
public enum Phase {
    INPUT("input wait", Span.Category.INPUT),
    CALLBACKS("callbacks", Span.Category.HOST),
    COMPUTE("train step", Span.Category.COMPUTE),
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
