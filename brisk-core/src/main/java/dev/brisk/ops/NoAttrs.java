package dev.brisk.ops;

/** Attributes of ops that have none. */
public enum NoAttrs implements Attrs {
    /** The only value. */
    INSTANCE
}
