package dev.brisk.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Tensor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AtomicFiles' temporaries (named so they are never a user's file, removed when stale) and file permissions. */
class AtomicFilesTest {
    private static final String HEX = "0123456789abcdef";

    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A file named {@code name} in the test directory, last modified an hour ago. */
    private Path hourOld(String name) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "left by someone");
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(3600)));
        return p;
    }

    private static void write(Path f, String text) throws IOException {
        AtomicFiles.write(f, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theNextSaveRemovesStaleTemporariesOfItsTargetAndNoOtherFile() throws IOException {
        Path target = dir.resolve("w.brisk");
        Path stale = hourOld(".w.brisk.brisk-tmp-" + HEX);
        Path staleToo = hourOld(".w.brisk.brisk-tmp-ffffffffffffffff");
        List<String> kept = List.of(
                ".w.brisk.brisk-tmp-notes",                 // a user's file with a similar name
                ".w.brisk.brisk-tmp-" + HEX.toUpperCase(),  // not the pattern: lower-case digits only
                ".w.brisk.brisk-tmp-" + HEX + ".bak",
                ".w.brisk.brisk-tmp-" + HEX.substring(1),
                ".w.brisk.1234567890.tmp",                  // what Files.createTempFile would name
                "w.brisk.tmp",
                ".other.brisk.brisk-tmp-" + HEX,            // another target's temporary
                ".x.w.brisk.brisk-tmp-" + HEX);
        for (String name : kept) {
            hourOld(name);
        }
        Path recent = dir.resolve(".w.brisk.brisk-tmp-1111111111111111"); // maybe just created by another process
        Files.writeString(recent, "being written");

        write(target, "saved");
        assertEquals("saved", Files.readString(target));
        assertFalse(Files.exists(stale), "a stale temporary of the target is removed");
        assertFalse(Files.exists(staleToo));
        assertTrue(Files.exists(recent), "a temporary modified within the last minute is kept");
        for (String name : kept) {
            assertTrue(Files.exists(dir.resolve(name)), name + " is kept");
        }
    }

    @Test
    void aTemporaryIsNamedByThePatternAndNoneIsLeftAfterASave() throws IOException {
        Path target = dir.resolve("m.brisk");
        String[] seen = new String[1];
        AtomicFiles.write(target, out -> {
            try (var s = Files.list(dir)) {
                seen[0] = s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("m.brisk")).findFirst()
                        .orElseThrow();
            }
            out.write(1);
        });
        assertTrue(TemporaryFiles.isTemporaryOf("m.brisk", seen[0]), seen[0]);
        assertEquals(List.of("m.brisk"), names());
    }

    @Test
    void aTemporaryThatThisProcessIsWritingIsNeverRemoved() throws Exception {
        Path target = dir.resolve("shared.brisk");
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> slow = pool.submit(() -> {
                AtomicFiles.write(target, out -> {
                    out.write("slow".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    writing.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                });
                return null;
            });
            assertTrue(writing.await(30, TimeUnit.SECONDS));
            // make the other thread's temporary look old: only the knowledge that it is being written protects it
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(3600)));
                }
            }
            write(target, "fast");
            release.countDown();
            slow.get(30, TimeUnit.SECONDS);
            assertEquals("slow", Files.readString(target), "the slow save's temporary survived the fast save");
            assertEquals(List.of("shared.brisk"), names());
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aTemporaryLockedByALiveProcessIsKeptAndRemovedOnceThatProcessIsKilled() throws Exception {
        Path target = dir.resolve("c.brisk");
        Path held = hourOld(".c.brisk.brisk-tmp-" + HEX);
        Path holder = dir.getParent().resolve(dir.getFileName() + "-Hold.java");
        Files.writeString(holder, """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                class Hold {
                    public static void main(String[] args) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE);
                        ch.lock();
                        System.out.println("locked");
                        System.out.flush();
                        Thread.sleep(600_000);
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, holder.toString(), held.toString()).redirectErrorStream(true).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            Assumptions.assumeTrue("locked".equals(line), "the lock holder did not start: " + line);
            write(target, "one");
            assertTrue(Files.exists(held), "a process holds it: it is being written");
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL, as a crash would
            write(target, "two");
            assertFalse(Files.exists(held), "its writer was killed: stale");
            assertEquals(List.of("c.brisk"), names());
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(holder);
        }
    }

    // ---- permissions ----

    private static void assumePosix() {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
                "POSIX permissions");
    }

    @Test
    void aNewFileGetsThePermissionsOfAnyNewlyCreatedFile() throws IOException {
        assumePosix();
        // with the usual umask 022 (or 002) a new file is 0644 (0664); createTempFile always made 0600
        Path reference = Files.createFile(dir.resolve("reference"));
        Path plain = dir.resolve("plain.bin");
        write(plain, "x");
        Path weights = dir.resolve("sub/w.brisk");
        WeightsFile.save(weights, Map.of("a", Tensor.of(new float[] {1}, 1)));
        assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(reference)),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(plain)));
        assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(reference)),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(weights)));
    }

    @Test
    void anExistingFileKeepsItsPermissions() throws IOException {
        assumePosix();
        Path f = dir.resolve("kept.brisk");
        write(f, "first");
        for (String mode : new String[] {"rw-r-----", "rw-rw-r--", "r--------"}) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
            write(f, "again " + mode);
            assertEquals("again " + mode, Files.readString(f));
            assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        }
    }
}
