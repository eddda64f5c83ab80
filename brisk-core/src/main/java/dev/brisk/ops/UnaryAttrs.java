package dev.brisk.ops;

import dev.brisk.backend.UnaryFn;

/** The function of a UNARY node and its parameter. */
public record UnaryAttrs(UnaryFn fn, float alpha) implements Attrs {
}
