package dev.brisk.nn;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Who may use a model at the same time (the contract in docs/thread-safety.md).
 *
 * <ul>
 *   <li><b>Shared</b> calls ({@code predict}, {@code evaluate}) run side by side on any number of threads.</li>
 *   <li><b>Exclusive</b> calls change the model: {@code fit} for as long as it trains, and the short ones that
 *       replace weights or configuration. An exclusive call waits for the shared calls in progress to end; while
 *       it waits, new shared calls wait behind it, so a stream of predictions cannot starve it.</li>
 *   <li>While {@code fit} runs, calls from other threads are refused at once with an
 *       {@link IllegalStateException} instead of waiting for the whole training (Keras leaves this undefined; a
 *       caller that waited silently for minutes would look hung). The training thread itself, that is its
 *       callbacks, may call anything.</li>
 * </ul>
 */
final class ModelGuard {
    /** How often a waiting call looks again whether a fit has started meanwhile, and must be refused. */
    private static final long RECHECK_MILLIS = 20;

    private final String modelName;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    /** The thread inside {@code fit}, or null: calls from other threads are refused while it is set. */
    private volatile Thread fitThread;

    ModelGuard(String modelName) {
        this.modelName = modelName;
    }

    /** Runs a call that reads the model ({@code action} names it in errors), beside other such calls. */
    <T> T shared(String action, Supplier<T> body) {
        if (lock.isWriteLockedByCurrentThread()) {
            return body.get();
        }
        acquire(lock.readLock(), action);
        try {
            return body.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs a short call that changes the model, once the calls in progress have ended. */
    <T> T exclusive(String action, Supplier<T> body) {
        if (lock.isWriteLockedByCurrentThread()) {
            return body.get();
        }
        refuseInsideSharedCall(action);
        acquire(lock.writeLock(), action);
        try {
            return body.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Runs {@code fit}: exclusive for its whole length, and other threads' calls are refused meanwhile. */
    <T> T training(Supplier<T> body) {
        if (lock.isWriteLockedByCurrentThread()) {
            return body.get();
        }
        refuseInsideSharedCall("fit");
        synchronized (this) {
            refuseDuringFit("fit");
            fitThread = Thread.currentThread();
        }
        try {
            acquire(lock.writeLock(), "fit");
            try {
                return body.get();
            } finally {
                lock.writeLock().unlock();
            }
        } finally {
            fitThread = null;
        }
    }

    private void acquire(java.util.concurrent.locks.Lock l, String action) {
        try {
            while (true) {
                refuseDuringFit(action);
                if (l.tryLock(RECHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(action + " on model '" + modelName + "' was interrupted while it waited "
                    + "for other calls on the model to end", e);
        }
    }

    private void refuseDuringFit(String action) {
        Thread t = fitThread;
        if (t != null && t != Thread.currentThread()) {
            throw new IllegalStateException(action + " on model '" + modelName + "' refused: fit is running on "
                    + "thread '" + t.getName() + "'; call " + action + " after fit returns, or from a callback of "
                    + "that fit");
        }
    }

    /** A thread holding a shared call cannot wait for the exclusive lock: it would wait for itself. */
    private void refuseInsideSharedCall(String action) {
        if (lock.getReadHoldCount() > 0) {
            throw new IllegalStateException(action + " on model '" + modelName + "' cannot run inside a predict or "
                    + "evaluate call on the same model");
        }
    }
}
