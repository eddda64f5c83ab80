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
    /** The first state array (Adam's first moments, SGD's velocity, RMSprop's mean square, ...). */
    float[] m;
    int mOff;
    float[] v;
    int vOff;
    /** The learning rate (Adam's bias-corrected one). */
    float lr;
    float beta1;
    float beta2;
    /** The denominator's epsilon (Adam's bias-corrected one). */
    float eps;
    /** The decoupled weight decay of this step ({@code lr * weight_decay}). */
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
    /** FTRL's learning-rate power, L1 strength, twice its L2 strength and twice its shrinkage strength. */
    float power;
    float l1;
    float twoL2;
    float shrinkage2;
    /** The update's loop over whole vectors, which {@link VectorOptimizers}' chunks call. */
    RegionTask.Body<OptimizerArgs> vectors;

    /** This thread's instance. */
    static OptimizerArgs get() {
        return Scratch.get().optimizerArgs();
    }

    /** Takes every hyperparameter and the update's loop of {@code from} (not its arrays). */
    void copyHyperparameters(OptimizerArgs from) {
        lr = from.lr;
        beta1 = from.beta1;
        beta2 = from.beta2;
        eps = from.eps;
        decay = from.decay;
        momentum = from.momentum;
        nesterov = from.nesterov;
        rho = from.rho;
        mRate = from.mRate;
        gRate = from.gRate;
        vCorrection = from.vCorrection;
        power = from.power;
        l1 = from.l1;
        twoL2 = from.twoL2;
        shrinkage2 = from.shrinkage2;
        vectors = from.vectors;
    }

    @Override
    void clearReferences() {
        p = null;
        g = null;
        m = null;
        v = null;
        w = null;
        vectors = null;
    }
}
