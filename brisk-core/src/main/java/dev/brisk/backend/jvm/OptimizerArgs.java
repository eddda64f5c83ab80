package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel optimizer update: the parameters, their gradients and up to two state arrays, with
 * the step's hyperparameters.
 */
final class OptimizerArgs extends RegionTask<OptimizerArgs> {
    float[] p;
    int pOff;
    float[] g;
    int gOff;
    /** The first state: Adam's first moment, SGD's velocity, RMSprop's mean square. */
    float[] m;
    int mOff;
    /** The second state: Adam's second moment. */
    float[] v;
    int vOff;
    /** The learning rate (Adam's bias-corrected one). */
    float lr;
    /** Adam's beta1, SGD's momentum, RMSprop's rho. */
    float beta1;
    float beta2;
    /** The denominator's epsilon (Adam's bias-corrected one). */
    float eps;
    float decay;
    boolean nesterov;

    /** This thread's instance. */
    static OptimizerArgs get() {
        return Scratch.get().optimizerArgs();
    }

    @Override
    void clearReferences() {
        p = null;
        g = null;
        m = null;
        v = null;
    }
}
