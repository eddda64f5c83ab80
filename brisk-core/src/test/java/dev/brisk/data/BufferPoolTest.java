package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool's rules: only a current lease comes back, once; past its capacity it allocates and forgets. */
class BufferPoolTest {
    private static final Shape SHAPE = Shape.of(4, 3);

    @Test
    void onlyACurrentLeaseComesBackAndOnlyOnce() {
        BufferPool pool = new BufferPool();
        Tensor a = pool.take(SHAPE);
        pool.give(Tensor.wrap(a.data(), 0, SHAPE)); // the same array under another tensor: not the lease
        pool.give(Tensor.zeros(SHAPE));
        assertEquals(0, pool.freeCount());
        pool.give(a);
        pool.give(a);
        assertEquals(1, pool.freeCount(), "given back twice, free once");
        Tensor b = pool.take(SHAPE);
        assertSame(a.data(), b.data());
        pool.give(a); // stale: the array is b's now
        assertEquals(0, pool.freeCount());
        Tensor smaller = pool.take(Shape.of(2, 3)); // a last, smaller batch: new storage, not tracked
        pool.give(smaller);
        assertEquals(0, pool.freeCount());
        pool.close();
        pool.give(b);
        assertEquals(0, pool.freeCount(), "a closed pool keeps nothing");
    }

    @Test
    void pastItsCapacityThePoolAllocatesWithoutWaitingAndReusesWhatItTracks() {
        BufferPool pool = new BufferPool();
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i < BufferPool.CAPACITY + 10; i++) {
            out.add(pool.take(SHAPE)); // nothing given back: every take allocates, none waits
        }
        out.forEach(pool::give);
        assertEquals(BufferPool.CAPACITY, pool.freeCount(), "the untracked ones were not taken back");
        for (int i = 0; i < BufferPool.CAPACITY; i++) {
            Tensor t = pool.take(SHAPE);
            assertNotSame(out.get(BufferPool.CAPACITY + 5).data(), t.data());
        }
        assertEquals(0, pool.freeCount());
    }
}
