package dev.brisk.optimizers;

/** Factories for the built-in optimisers with Keras' default hyper-parameters. */
public final class Optimizers {
    private Optimizers() {
    }

    /**
     * Adam with beta1 0.9, beta2 0.999, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Adam adam(float learningRate) {
        return new Adam(learningRate, 0.9f, 0.999f, 1e-7f, 0f);
    }

    /**
     * Adam with Keras' defaults: learning rate 0.001, beta1 0.9, beta2 0.999, epsilon 1e-7.
     *
     * @return the optimiser
     */
    public static Adam adam() {
        return adam(1e-3f);
    }

    /**
     * Adam with Keras' default betas and epsilon, whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @return the optimiser
     */
    public static Adam adam(LearningRateSchedule schedule) {
        return new Adam(schedule, 0.9f, 0.999f, 1e-7f, 0f);
    }

    /**
     * AdamW: Adam with decoupled weight decay (Keras default 0.004).
     *
     * @param learningRate the learning rate
     * @param weightDecay the decoupled weight decay, applied as {@code w -= lr * weightDecay * w}
     * @return the optimiser
     */
    public static Adam adamW(float learningRate, float weightDecay) {
        return new Adam(learningRate, 0.9f, 0.999f, 1e-7f, weightDecay);
    }

    /**
     * AdamW with Keras' default weight decay 0.004.
     *
     * @param learningRate the learning rate
     * @return the optimiser
     */
    public static Adam adamW(float learningRate) {
        return adamW(learningRate, 0.004f);
    }

    /**
     * Plain SGD (Keras default learning rate 0.01).
     *
     * @param learningRate the learning rate
     * @return the optimiser
     */
    public static Sgd sgd(float learningRate) {
        return new Sgd(learningRate, 0f, false);
    }

    /**
     * SGD with momentum, as Keras' {@code SGD(learning_rate, momentum, nesterov)}.
     *
     * @param learningRate the learning rate
     * @param momentum the momentum, 0 for none (Keras' default)
     * @param nesterov true for Nesterov momentum
     * @return the optimiser
     */
    public static Sgd sgd(float learningRate, float momentum, boolean nesterov) {
        return new Sgd(learningRate, momentum, nesterov);
    }

    /**
     * SGD with momentum whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param momentum the momentum, 0 for none
     * @param nesterov true for Nesterov momentum
     * @return the optimiser
     */
    public static Sgd sgd(LearningRateSchedule schedule, float momentum, boolean nesterov) {
        return new Sgd(schedule, momentum, nesterov);
    }

    /**
     * RMSprop with rho 0.9, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static RmsProp rmsprop(float learningRate) {
        return new RmsProp(learningRate, 0.9f, 1e-7f);
    }

    /**
     * RMSprop with Keras' options.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @param rho the mean square's decay (0.9)
     * @param momentum the momentum (0)
     * @param epsilon the epsilon (1e-7)
     * @param centered whether to centre the mean square (false)
     * @return the optimiser
     */
    public static RmsProp rmsprop(float learningRate, float rho, float momentum, float epsilon, boolean centered) {
        return new RmsProp(learningRate, rho, momentum, epsilon, centered, 0f);
    }

    /**
     * Adam with AMSGrad and Keras' default betas and epsilon.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Adam amsgrad(float learningRate) {
        return new Adam(learningRate, 0.9f, 0.999f, 1e-7f, 0f, true);
    }

    /**
     * Adagrad with Keras' defaults: initial accumulator 0.1, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Adagrad adagrad(float learningRate) {
        return new Adagrad(learningRate, 0.1f, 1e-7f, 0f);
    }

    /**
     * Adadelta with Keras' defaults: rho 0.95, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001; PyTorch's 1.0)
     * @return the optimiser
     */
    public static Adadelta adadelta(float learningRate) {
        return new Adadelta(learningRate, 0.95f, 1e-7f, 0f);
    }

    /**
     * Adamax with Keras' defaults: beta1 0.9, beta2 0.999, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Adamax adamax(float learningRate) {
        return new Adamax(learningRate, 0.9f, 0.999f, 1e-7f, 0f);
    }

    /**
     * Nadam with Keras' defaults: beta1 0.9, beta2 0.999, epsilon 1e-7.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Nadam nadam(float learningRate) {
        return new Nadam(learningRate, 0.9f, 0.999f, 1e-7f, 0f);
    }

    /**
     * Lion with Keras' defaults: beta1 0.9, beta2 0.99.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Lion lion(float learningRate) {
        return new Lion(learningRate, 0.9f, 0.99f, 0f);
    }

    /**
     * FTRL with Keras' defaults: learning-rate power -0.5, initial accumulator 0.1, no L1, L2, shrinkage or beta.
     *
     * @param learningRate the learning rate (Keras' default 0.001)
     * @return the optimiser
     */
    public static Ftrl ftrl(float learningRate) {
        return new Ftrl(learningRate, -0.5f, 0.1f, 0f, 0f, 0f, 0f, 0f);
    }
}
