package dev.brisk.metrics;

import dev.brisk.io.KerasObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A metric spec made by one of {@link Metrics}' factories, which knows its Keras class name and configuration, so
 * that a saved model's compile settings can record it as Keras records a metric object ({@code class_name} and
 * {@code get_config()}: its name, {@code dtype} and options).
 *
 * @param kerasClassName Keras' class, e.g. {@code Precision}
 * @param kerasConfig its configuration
 * @param impl makes the metric
 */
record NamedMetricSpec(String kerasClassName, Map<String, Object> kerasConfig, MetricSpec impl)
        implements MetricSpec, KerasObject {
    /**
     * A spec of Keras class {@code className} whose config is its {@code name}, {@code dtype} float32, then the
     * alternating keys and values given (values may be null).
     */
    static NamedMetricSpec of(String className, String name, MetricSpec impl, Object... keysAndValues) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        c.put("dtype", "float32");
        c.putAll(KerasObject.config(keysAndValues));
        return new NamedMetricSpec(className, Collections.unmodifiableMap(c), impl);
    }

    @Override
    public Metric create(Target target) {
        return impl.create(target);
    }
}
