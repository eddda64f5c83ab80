package dev.brisk.exec;

/** One kernel call bound to its buffers and geometry; running it allocates nothing. */
@FunctionalInterface
public interface Instruction {
    void run();
}
