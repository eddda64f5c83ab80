package dev.brisk.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.Test;

/** Eager output storage is handed out, taken back at the end of a step, and handed out again. */
class EagerBuffersTest {
    @Test
    void reclaimedStorageIsReusedForTheSameSize() {
        EagerBuffers buffers = new EagerBuffers();
        Tensor a = buffers.take(Shape.of(4, 8));
        Tensor b = buffers.take(Shape.of(32));
        assertNotSame(a.data(), b.data(), "two live values never share storage");
        assertEquals(2, buffers.lentCount());
        buffers.reclaim();
        assertEquals(0, buffers.lentCount());
        Tensor c = buffers.take(Shape.of(8, 4));
        Tensor d = buffers.take(Shape.of(2, 16));
        assertSame(b.data(), c.data(), "the most recently freed array of that size comes back first");
        assertSame(a.data(), d.data());
        Tensor e = buffers.take(Shape.of(5));
        assertEquals(5 + Tensor.TAIL_PADDING, e.data().length, "other sizes get new, padded storage");
    }
}
