/**
 * Data-parallel gradient exchange: the ring all-reduce ({@link dev.brisk.distribute.RingAllReduce}) over a
 * {@link dev.brisk.distribute.RingTransport}, in memory between threads ({@link dev.brisk.distribute.MemoryRing}) or
 * over TCP between processes and machines ({@link dev.brisk.distribute.SocketRing}), and the same reduction order
 * computed directly in one process ({@link dev.brisk.distribute.RingOrder}). It depends on the JDK only.
 */
package dev.brisk.distribute;
