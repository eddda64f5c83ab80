package dev.brisk.optimizers;

/** Factories for the built-in optimisers with Keras' default hyper-parameters. */
public final class Optimizers {
    private Optimizers() {
    }

    /** Adam with beta1 0.9, beta2 0.999, epsilon 1e-7. */
    public static Adam adam(float learningRate) {
        return new Adam(learningRate, 0.9f, 0.999f, 1e-7f, 0f);
    }

    public static Adam adam() {
        return adam(1e-3f);
    }

    public static Adam adam(LearningRateSchedule schedule) {
        return new Adam(schedule, 0.9f, 0.999f, 1e-7f, 0f);
    }

    /** AdamW: Adam with decoupled weight decay (Keras default 0.004). */
    public static Adam adamW(float learningRate, float weightDecay) {
        return new Adam(learningRate, 0.9f, 0.999f, 1e-7f, weightDecay);
    }

    public static Adam adamW(float learningRate) {
        return adamW(learningRate, 0.004f);
    }

    /** Plain SGD (Keras default learning rate 0.01). */
    public static Sgd sgd(float learningRate) {
        return new Sgd(learningRate, 0f, false);
    }

    public static Sgd sgd(float learningRate, float momentum, boolean nesterov) {
        return new Sgd(learningRate, momentum, nesterov);
    }

    public static Sgd sgd(LearningRateSchedule schedule, float momentum, boolean nesterov) {
        return new Sgd(schedule, momentum, nesterov);
    }

    /** RMSprop with rho 0.9, epsilon 1e-7. */
    public static RmsProp rmsprop(float learningRate) {
        return new RmsProp(learningRate, 0.9f, 1e-7f);
    }
}
