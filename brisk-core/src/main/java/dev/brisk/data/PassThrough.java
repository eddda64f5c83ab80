package dev.brisk.data;

/**
 * A relay whose elements are its input's own elements (take, skip, filter): what the consumer gives back goes to
 * the stage that made it.
 */
abstract class PassThrough<T> extends Relay<T, T> {
    PassThrough(Cursor<T> in) {
        super(in);
    }

    @Override
    public void recycle(T element) {
        in.recycle(element);
    }
}
