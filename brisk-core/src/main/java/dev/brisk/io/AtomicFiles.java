package dev.brisk.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Writes files so that a crash never leaves a half-written one: write a temporary file in the target's directory,
 * sync it, rename it over the target.
 *
 * <p>Temporaries are named {@code .<target name>.brisk-tmp-<16 hex digits>}; one left by a process killed while
 * writing is removed by the next successful write of the same target, and no other file is ever removed (see
 * {@link TemporaryFiles}).
 *
 * <p>Permissions: a new file gets what a newly created file gets (0666 less the process umask, as other tools
 * do). A file that already exists keeps its POSIX permissions, as editors keep them, so a user's {@code chmod}
 * survives the next checkpoint. Owner, group and ACLs are those of the writing process, as for any new file.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** What writes the content of a file. */
    @FunctionalInterface
    public interface Writer {
        /**
         * Writes the whole content of the file to {@code out}; {@link AtomicFiles#write} flushes, syncs and closes it.
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
        Path absolute = target.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        TemporaryFiles.Open tmp = TemporaryFiles.create(absolute);
        try {
            try (FileChannel ch = tmp.channel()) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                writer.write(out);
                out.flush();
                ch.force(true);
                keepPermissions(absolute, tmp.path());
                // renamed while still open and locked, so no other process takes it for a stale temporary
                try {
                    Files.move(tmp.path(), absolute, StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp.path(), absolute, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            try {
                Files.deleteIfExists(tmp.path());
            } finally {
                TemporaryFiles.done(tmp.path());
            }
        }
        TemporaryFiles.removeStale(absolute);
    }

    /** Gives {@code tmp} the POSIX permissions of {@code target} if it exists and the file system has them. */
    private static void keepPermissions(Path target, Path tmp) throws IOException {
        PosixFileAttributeView targetView = Files.getFileAttributeView(target, PosixFileAttributeView.class);
        if (targetView == null) {
            return;
        }
        Set<PosixFilePermission> existing;
        try {
            existing = targetView.readAttributes().permissions();
        } catch (NoSuchFileException e) {
            return; // a new file: the permissions it was created with
        }
        Files.setPosixFilePermissions(tmp, existing);
    }
}
