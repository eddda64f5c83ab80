package dev.brisk.nn;

import dev.brisk.io.KerasObject;
import java.util.Map;

/**
 * Keras 3's dtype policy as a layer's configuration records it. Brisk computes in float32 (token ids aside), so
 * there is one policy.
 */
public final class DTypePolicy implements KerasObject {
    /** The float32 policy, Keras' default. */
    public static final DTypePolicy FLOAT32 = new DTypePolicy();

    private DTypePolicy() {
    }

    @Override
    public String kerasClassName() {
        return "DTypePolicy";
    }

    @Override
    public Map<String, Object> kerasConfig() {
        return Map.of("name", "float32");
    }
}
