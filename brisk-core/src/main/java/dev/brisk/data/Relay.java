package dev.brisk.data;

/** A cursor that reads from one upstream cursor and closes it when it is closed. */
abstract class Relay<I, O> implements Cursor<O> {
    final Cursor<I> in;

    Relay(Cursor<I> in) {
        this.in = in;
    }

    @Override
    public void close() {
        in.close();
    }
}
