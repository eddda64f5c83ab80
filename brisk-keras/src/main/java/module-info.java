/**
 * Whole-model files in Keras 3's {@code .keras} format ({@code KerasModels}): the architecture as Keras'
 * {@code config.json}, the weights and the optimizer's state in {@code model.weights.h5} (HDF5, through jHDF).
 * A module of its own so that {@code brisk-core} keeps no dependencies.
 */
module dev.brisk.keras {
    requires transitive dev.brisk.core;
    // jHDF has no module descriptor; its jar names the automatic module io.jhdf.
    requires io.jhdf;
    requires com.fasterxml.jackson.databind;

    exports dev.brisk.keras;
}
