package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.function.Function;

/** {@link Batch#features}: a function of tensors applied to a batch's features, the labels kept. */
record BatchFeatureMap(Function<? super Tensor, ? extends Tensor> fn) implements Function<Batch, Batch> {

    @Override
    public Batch apply(Batch b) {
        return b.withInputs(new Tensor[] {fn.apply(b.features())});
    }

    /** The function as an in-place one, or null when it is not elementwise. */
    ElementwiseTransform elementwise() {
        return fn instanceof ElementwiseTransform t ? t : null;
    }
}
