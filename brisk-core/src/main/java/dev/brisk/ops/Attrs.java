package dev.brisk.ops;

/** Marker for the static attributes of a node (the parts of an op that are not tensors). */
public sealed interface Attrs permits UnaryAttrs, BinaryAttrs, MatMulAttrs, ReduceAttrs, ShapeAttrs, SoftmaxAttrs,
        ConvAttrs, PoolAttrs, ConvGradAttrs, PoolGradAttrs, DropoutAttrs, UpdateAttrs, AxisAttrs, NoAttrs, FusedAttrs,
        BatchNormAttrs, PermuteAttrs, LayerNormAttrs, RecurrentAttrs, NoiseAttrs,
        ImageAugmentAttrs, AttentionAttrs {
}
