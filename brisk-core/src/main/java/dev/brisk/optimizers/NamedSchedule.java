package dev.brisk.optimizers;

import dev.brisk.io.KerasObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A learning-rate schedule made by one of {@link LearningRateSchedule}'s factories, which knows its Keras class
 * name and configuration (so a saved model can record it).
 */
final class NamedSchedule implements LearningRateSchedule, KerasObject {
    private final String className;
    private final Map<String, Object> config;
    private final LearningRateSchedule impl;

    NamedSchedule(String className, Map<String, Object> config, LearningRateSchedule impl) {
        this.className = className;
        this.config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
        this.impl = impl;
    }

    @Override
    public float at(long step) {
        return impl.at(step);
    }

    @Override
    public String kerasClassName() {
        return className;
    }

    @Override
    public Map<String, Object> kerasConfig() {
        return config;
    }
}
