package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.layers.Conv1D;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Conv2DTranspose;
import dev.brisk.nn.layers.DepthwiseConv2D;
import dev.brisk.nn.layers.Padding;
import dev.brisk.nn.layers.SeparableConv2D;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The convolution layers write the same Keras config, byte for byte, as the fixture recorded from them: every entry,
 * in Keras' order, with their regularizers, constraints, dilation, depth multiplier and causal padding set, so that
 * a change in how the layers assemble their configs cannot change a saved file.
 */
class ConvolutionConfigBytesTest {
    private static final String FIXTURE = "convolution-configs.json";

    private static List<Layer> layers() {
        Conv2D conv = new Conv2D(4, 3, 2, 1, 1, 2, 1, Padding.SAME, Activation.RELU, true, Initializer.heNormal(),
                Initializer.constant(0.5f), Regularizer.l2(0.01f), "conv")
                .biasRegularizer(Regularizer.l1(0.02f)).kernelConstraint(Constraint.maxNorm(2f))
                .biasConstraint(Constraint.nonNeg());
        conv.activityRegularizer(Regularizer.l1l2(0.1f, 0.2f));
        Conv2D strided = new Conv2D(3, 3, 3, 2, 2, Padding.VALID, Activation.LINEAR, false,
                Initializer.glorotUniform(), Initializer.zeros(), null, "strided");
        Conv1D causal = new Conv1D(5, 3, 1, Padding.CAUSAL, 2, Activation.TANH, true, Initializer.lecunNormal(),
                Initializer.ones(), Regularizer.l1(0.3f), "causal");
        DepthwiseConv2D depthwise = new DepthwiseConv2D(3, 3, 1, 1, 1, 2, 2, Padding.SAME, Activation.RELU, true,
                Initializer.heUniform(), Initializer.zeros(), Regularizer.l2(0.4f), "depthwise")
                .biasRegularizer(Regularizer.l2(0.1f)).depthwiseConstraint(Constraint.unitNorm())
                .biasConstraint(Constraint.nonNeg());
        SeparableConv2D separable = new SeparableConv2D(6, 3, 3, 1, 1, 2, 2, 3, Padding.VALID, Activation.LINEAR,
                true, Initializer.glorotNormal(), Initializer.lecunUniform(), Initializer.zeros(), "separable")
                .depthwiseRegularizer(Regularizer.l2(0.3f)).pointwiseRegularizer(Regularizer.l1(0.4f))
                .biasRegularizer(Regularizer.l1l2(0.1f, 0.2f)).depthwiseConstraint(Constraint.nonNeg())
                .pointwiseConstraint(Constraint.maxNorm(3f)).biasConstraint(Constraint.nonNeg());
        Conv2DTranspose transpose = new Conv2DTranspose(2, 3, 2, 2, 1, Padding.SAME, Activation.RELU, true,
                Initializer.glorotUniform(), Initializer.zeros(), Regularizer.l2(0.5f), "transpose")
                .biasRegularizer(Regularizer.l1(0.01f)).kernelConstraint(Constraint.maxNorm(2f))
                .biasConstraint(Constraint.nonNeg());
        return List.of(conv, strided, causal, depthwise, separable, transpose);
    }

    @Test
    void configsAreTheRecordedBytes() throws IOException {
        List<Object> configs = new ArrayList<>();
        for (Layer l : layers()) {
            configs.add(Json.serialize(l));
        }
        String written = new String(Json.write(configs), StandardCharsets.UTF_8);
        String recorded;
        try (InputStream in = ConvolutionConfigBytesTest.class.getResourceAsStream(FIXTURE)) {
            recorded = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!recorded.equals(written)) {
            // Kept for a reviewer to diff against the fixture.
            Files.writeString(Path.of("target", FIXTURE), written);
        }
        assertEquals(recorded, written);
    }
}
