package dev.brisk.data;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Counts the records a pipeline dropped with {@link Pipeline#ignoreErrors(Consumer)} and keeps the first
 * messages, so a run can report "skipped 3 bad rows" with their reasons. Thread-safe.
 */
public final class BadRecords implements Consumer<BadRecordException> {
    private static final int KEPT = 10;
    private final List<String> messages = new ArrayList<>();
    private long count;

    /** An empty counter. */
    public BadRecords() {
    }

    @Override
    public synchronized void accept(BadRecordException e) {
        count++;
        if (messages.size() < KEPT) {
            messages.add(e.getMessage());
        }
    }

    /**
     * How many records were dropped so far.
     *
     * @return the count of dropped records
     */
    public synchronized long count() {
        return count;
    }

    /**
     * The messages of the first dropped records (at most ten).
     *
     * @return the messages, oldest first
     */
    public synchronized List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public synchronized String toString() {
        return count + " bad record" + (count == 1 ? "" : "s") + (messages.isEmpty() ? "" : ", first: "
                + messages.get(0));
    }
}
