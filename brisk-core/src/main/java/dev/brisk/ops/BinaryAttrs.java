package dev.brisk.ops;

import dev.brisk.backend.BinaryFn;

/** The function of a BINARY node and its parameter. */
public record BinaryAttrs(BinaryFn fn, float alpha) implements Attrs {
}
