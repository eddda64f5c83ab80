package dev.brisk.ops;


/** The function of a BINARY node and its parameter. */
public record BinaryAttrs(BinaryFn fn, float alpha) implements Attrs {
}
