package dev.brisk.ops;


/** The function of a UNARY node and its parameter. */
public record UnaryAttrs(UnaryFn fn, float alpha) implements Attrs {
}
