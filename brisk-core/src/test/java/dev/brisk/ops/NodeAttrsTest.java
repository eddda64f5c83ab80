package dev.brisk.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeAttrsTest {
    private final AdamUpdate adam = new AdamUpdate(0.9f, 0.999f);
    private final Node node = new Node(7, OpType.UPDATE, adam, List.of(), Shape.of(1), "", null);

    @Test
    void returnsTheAttributesAsTheKindAsked() {
        assertSame(adam, node.attrs(AdamUpdate.class));
        assertSame(adam, node.attrs(UpdateAttrs.class), "a sealed parent type matches too");
    }

    @Test
    void namesTheNodeAndBothKindsWhenTheKindIsWrong() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.attrs(ConvAttrs.class));
        assertTrue(e.getMessage().contains("%7"), e.getMessage());
        assertTrue(e.getMessage().contains("AdamUpdate"), e.getMessage());
        assertTrue(e.getMessage().endsWith("not ConvAttrs"), e.getMessage());
        assertEquals(IllegalStateException.class, e.getClass());
    }
}
