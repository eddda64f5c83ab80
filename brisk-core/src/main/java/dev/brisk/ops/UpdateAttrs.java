package dev.brisk.ops;

/**
 * A fused optimiser step. Inputs of an UPDATE node: the variable, its gradient, the slot variables the rule needs,
 * and a small INPUT vector of per-step hyper-parameters. Each rule is its own record, which names its fixed
 * hyper-parameters as fields and the indexes of its per-step vector as constants, so that the optimiser that fills
 * the vector and the kernel binder that reads it agree by name rather than by position.
 */
public sealed interface UpdateAttrs extends Attrs permits AdamUpdate, SgdUpdate, RmspropUpdate, AdagradUpdate,
        AdadeltaUpdate, AdamaxUpdate, NadamUpdate, LionUpdate, AmsgradUpdate, RmspropFullUpdate, FtrlUpdate {
}
