package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel optimizer update ({@link VectorOptimizers}): the parameters, their gradients, the
 * optimizer's state arrays and the step's hyperparameters. Each optimizer fills the fields it reads.
 */
final class OptimizerArgs extends RegionTask<OptimizerArgs> {
    float[] p;
    int pOff;
    float[] g;
    int gOff;
    /** Adam's first and second moments. */
    float[] m;
    int mOff;
    float[] v;
    int vOff;
    /** SGD's velocity. */
    float[] velocity;
    int velocityOff;
    /** RMSprop's mean square. */
    float[] meanSquare;
    int meanSquareOff;
    /** The learning rate (Adam's bias-corrected one). */
    float lr;
    float beta1;
    float beta2;
    /** The denominator's epsilon (Adam's bias-corrected one). */
    float eps;
    /** Adam's decoupled weight decay. */
    float decay;
    float momentum;
    boolean nesterov;
    float rho;
    /** A third state array (AMSGrad's largest second moments, centred RMSprop's mean gradients). */
    float[] w;
    int wOff;
    /** Nadam's first moment's rate, gradient's rate and second moment's bias correction. */
    float mRate;
    float gRate;
    float vCorrection;

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
        velocity = null;
        meanSquare = null;
        w = null;
    }
}
