package dev.brisk.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Writes files so that a crash never leaves a half-written one: write a temporary file, sync it, rename it. */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** What writes the content of a file. */
    @FunctionalInterface
    public interface Writer {
        /**
         * Writes the whole content of the file to {@code out}; the stream is closed by {@link AtomicFiles#write}.
         *
         * @param out the stream into the temporary file
         * @throws IOException if the content cannot be written; the target is then left as it was
         */
        void write(OutputStream out) throws IOException;
    }

    /**
     * Replaces {@code target} with what {@code writer} produces, atomically where the file system allows.
     *
     * @param target the file to create or replace; its directory is created if needed
     * @param writer what writes the content
     * @throws IOException if the temporary file cannot be written, synced or renamed; the target is then left as it was
     */
    public static void write(Path target, Writer writer) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                 OutputStream out = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch),
                         1 << 16)) {
                writer.write(out);
                out.flush();
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
