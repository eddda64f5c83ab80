package dev.brisk.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The temporary files {@link AtomicFiles} writes before renaming them into place, and the removal of those a killed
 * process left behind.
 *
 * <p>A temporary of target {@code name} is {@code .name.brisk-tmp-} followed by 16 lower-case hex digits, in the
 * target's directory: a pattern no user picks by chance, so that removing stale ones never removes a user's file.
 * Its writer holds an exclusive lock on it until it is renamed. A temporary is stale, and removed by the next save of
 * the same target, when no thread of this process is writing it, no process holds a lock on it (the lock of a
 * killed process is released by the operating system), and it was last modified over {@link #MIN_STALE_AGE_MILLIS}
 * ago (covering the moment between another process creating it and locking it). On a file system without locks it
 * must be a day old.
 */
final class TemporaryFiles {
    /** What follows the target's name in its temporaries' names. */
    static final String MARK = ".brisk-tmp-";
    /** Hex digits of randomness in a temporary's name. */
    static final int RANDOM_DIGITS = 16;
    /** How long a temporary must have been left unmodified before it can be stale. */
    static final long MIN_STALE_AGE_MILLIS = 60_000;
    /** How old a temporary must be to be stale where the file system cannot tell whether a process holds it. */
    static final long UNLOCKABLE_STALE_AGE_MILLIS = 24L * 3600 * 1000;

    /**
     * Temporaries this process is writing now. The cleanup never opens them: closing any channel to a file releases
     * all of this process's locks on it, which would leave another thread's temporary unprotected.
     */
    private static final Set<Path> WRITING = ConcurrentHashMap.newKeySet();

    private TemporaryFiles() {
    }

    /** A temporary being written: its path and the open, locked channel to it. */
    record Open(Path path, FileChannel channel) {
    }

    /**
     * Creates a new temporary for {@code target} (an absolute path) in its directory, with the permissions a newly
     * created file gets there (the process umask applies), and locks it.
     */
    static Open create(Path target) throws IOException {
        Path dir = target.getParent();
        String prefix = prefix(target);
        while (true) {
            Path tmp = dir.resolve(prefix + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
            if (!WRITING.add(tmp)) {
                continue;
            }
            FileChannel channel;
            try {
                channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                WRITING.remove(tmp);
                continue; // the same random name: try another
            } catch (IOException | RuntimeException e) {
                WRITING.remove(tmp);
                throw e;
            }
            lockQuietly(channel);
            return new Open(tmp, channel);
        }
    }

    /** Forgets {@code tmp} once it is renamed or deleted. */
    static void done(Path tmp) {
        WRITING.remove(tmp);
    }

    /** The name of a temporary of {@code target} up to its random digits. */
    static String prefix(Path target) {
        return "." + target.getFileName() + MARK;
    }

    /** True if {@code name} is the name of a temporary of the target named {@code targetName}. */
    static boolean isTemporaryOf(String targetName, String name) {
        String prefix = "." + targetName + MARK;
        if (!name.startsWith(prefix) || name.length() != prefix.length() + RANDOM_DIGITS) {
            return false;
        }
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Removes the stale temporaries of {@code target} (an absolute path) from its directory. Never fails: a
     * temporary that cannot be examined or removed is left for a later save.
     */
    static void removeStale(Path target) {
        String targetName = target.getFileName().toString();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(target.getParent(),
                p -> isTemporaryOf(targetName, p.getFileName().toString()))) {
            long now = System.currentTimeMillis();
            for (Path p : files) {
                if (!WRITING.contains(p) && isStale(p, now)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // tidying up is best effort; the save it follows has succeeded
        }
    }

    /** True if no process holds {@code p} and it has been left alone long enough; see the class comment. */
    private static boolean isStale(Path p, long now) throws IOException {
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        long age = now - Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
        if (age < MIN_STALE_AGE_MILLIS) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                return false; // held by this process
            } catch (IOException e) {
                return age >= UNLOCKABLE_STALE_AGE_MILLIS; // no locks on this file system
            }
            if (lock == null) {
                return false; // held by another process
            }
            lock.release();
            return true;
        }
    }

    /** Locks the whole of a new temporary, so other processes see it is being written; where locks work. */
    private static void lockQuietly(FileChannel channel) {
        try {
            channel.lock();
        } catch (IOException | RuntimeException e) {
            // a file system without locks: other processes fall back to the temporary's age
        }
    }
}
