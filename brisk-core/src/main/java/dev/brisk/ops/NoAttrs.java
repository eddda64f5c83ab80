package dev.brisk.ops;

/** Attributes of ops that have none. */
public enum NoAttrs implements Attrs {
    INSTANCE
}
