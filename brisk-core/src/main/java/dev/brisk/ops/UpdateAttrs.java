package dev.brisk.ops;

/**
 * A fused optimiser step. Inputs of an UPDATE node: the variable, its gradient, the slot variables the rule needs,
 * and a small INPUT vector of per-step hyper-parameters (see {@link Rule}).
 */
public record UpdateAttrs(Rule rule, float beta1, float beta2, boolean nesterov) implements Attrs {
    /** The update rules with fused kernels. */
    public enum Rule {
        /** Slots m, v; hyper-parameters [lrT, epsHat, decoupledDecay]; beta1, beta2 fixed. */
        ADAM,
        /** Slot velocity (absent without momentum); hyper-parameters [lr]; beta1 is the momentum. */
        SGD,
        /** Slot mean-square; hyper-parameters [lr, eps]; beta1 is rho. */
        RMSPROP
    }
}
