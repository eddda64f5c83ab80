package dev.brisk.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Backends;
import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The exporter's knowledge of Brisk's IR is complete and exact: when an op, an element function or an attribute field
 * is added to brisk-core, these tests fail until the exporter translates it or refuses it by name.
 */
class KnownAttributesTest {
    private static final Set<OpType> LEAVES = EnumSet.of(OpType.INPUT, OpType.VARIABLE, OpType.CONSTANT);

    @Test
    void everyOpIsTranslatedTrainingOnlyOrALeaf() {
        for (OpType op : OpType.values()) {
            int kinds = (KnownAttributes.all().containsKey(op) ? 1 : 0) + (TrainingOps.isTrainingOnly(op) ? 1 : 0)
                    + (LEAVES.contains(op) ? 1 : 0);
            assertEquals(1, kinds, op + " must be exactly one of: translated, training-only, leaf");
        }
    }

    @Test
    void theKnownFieldsAreExactlyTheAttributeRecordsFields() {
        KnownAttributes.all().forEach((op, known) -> assertEquals(KnownAttributes.fieldsOf(known.attrs()),
                known.fields(), op + ": " + known.attrs().getSimpleName()
                        + " has fields the exporter does not translate (or lost some); translate or refuse them"));
    }

    @Test
    void everyElementFunctionIsTranslatedOrAGradient() {
        assertEquals(EnumSet.allOf(UnaryFn.class), ElementwiseTranslation.UNARY);
        for (BinaryFn fn : BinaryFn.values()) {
            assertTrue(ElementwiseTranslation.BINARY.contains(fn) != fn.name().endsWith("_GRAD"),
                    fn + " must be translated, or be a gradient");
        }
    }

    @Test
    void anUnknownFieldIsRefusedNamingTheLayerAndTheField() {
        Graph g = Graph.symbolic(Backends.scalar());
        Node x = g.input("x", Shape.of(1, 8, 8, 3));
        Node k = g.input("k", Shape.of(3, 3, 3, 4));
        Node conv = g.inScope("conv", () -> g.conv2d(x, k, 1, 1, true));
        Map<OpType, KnownAttributes.Known> table = new EnumMap<>(KnownAttributes.all());
        // As if ConvAttrs had gained a field after the exporter was written: the table lacks one of its fields.
        table.put(OpType.CONV2D, new KnownAttributes.Known(ConvAttrs.class, List.of("strideH", "strideW"), 2));
        OnnxExportException e = assertThrows(OnnxExportException.class,
                () -> KnownAttributes.check(conv, "layer 'conv' (Conv2D)", table));
        assertTrue(e.getMessage().contains("layer 'conv' (Conv2D)") && e.getMessage().contains("'same'")
                && e.getMessage().contains("ConvAttrs"), e.getMessage());
        KnownAttributes.check(conv, "layer 'conv' (Conv2D)"); // the real table knows every field

        table.put(OpType.CONV2D, new KnownAttributes.Known(PoolAttrs.class, List.of(), 2));
        e = assertThrows(OnnxExportException.class, () -> KnownAttributes.check(conv, "layer 'conv'", table));
        assertTrue(e.getMessage().contains("carries ConvAttrs"), e.getMessage());
    }

    @Test
    void aTrainingOpIsRefusedAsSuch() {
        Graph g = Graph.symbolic(Backends.scalar());
        Node x = g.input("x", Shape.of(2, 4));
        Node dropout = g.inScope("drop", () -> g.dropout(x, 0.5f, g.input("seed", Shape.scalar()), 1));
        OnnxExportException e = assertThrows(OnnxExportException.class,
                () -> KnownAttributes.check(dropout, "layer 'drop' (Dropout)"));
        assertTrue(e.getMessage().contains("layer 'drop' (Dropout)") && e.getMessage().contains("DROPOUT")
                && e.getMessage().contains("training"), e.getMessage());
        assertFalse(KnownAttributes.all().containsKey(OpType.DROPOUT));
    }
}
