package dev.brisk.data;

import dev.brisk.config.Setting;
import dev.brisk.config.Settings;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Unpacked copies of gzip-compressed IDX files, kept in a cache directory (as torchvision keeps its raw MNIST files)
 * so that later runs read the bytes instead of inflating them, which costs more CPU than reading
 * (docs/benchmark-log.md, "An unpacked copy of the data files"). A copy is written while the compressed file is
 * read the first time, to a temporary file that is synced and then renamed, so a crash leaves no half-written copy;
 * it is named after the compressed file's name, size and modification time, so a changed
 * file gets a new copy; a copy that does not read as a whole IDX file is deleted and made again.
 */
public final class UnpackedCache {
    /** System property naming the cache directory; {@code none} turns the cache off. */
    public static final String PROPERTY = Setting.CACHE_DIR.property();
    /** Environment variable naming the cache directory, when the property is not set; {@code none} turns it off. */
    public static final String ENV = Setting.CACHE_DIR.env();

    private final Path dir;

    /**
     * A cache in {@code dir} (created when the first copy is written).
     *
     * @param dir the cache directory
     */
    public UnpackedCache(Path dir) {
        this.dir = dir;
    }

    /**
     * The cache named by {@code -Dbrisk.cacheDir}, else {@code BRISK_CACHE_DIR}, else {@code $XDG_CACHE_HOME/brisk},
     * else {@code ~/.cache/brisk}. Null (no cache) when the setting is {@code none}, or when the directory it comes
     * to is not an absolute path (a relative setting, or a JVM whose user has no home directory: {@code user.home}
     * is then {@code ?}); a relative {@code XDG_CACHE_HOME} is ignored, as the XDG specification says.
     *
     * @return the cache, or null
     */
    public static UnpackedCache fromEnvironment() {
        String setting = Settings.cacheDir();
        if (setting != null) {
            return setting.equalsIgnoreCase("none") ? null : absolute(setting);
        }
        UnpackedCache xdg = absolute(System.getenv("XDG_CACHE_HOME"), "brisk");
        if (xdg != null) {
            return xdg;
        }
        return absolute(System.getProperty("user.home"), ".cache", "brisk");
    }

    /** A cache at {@code first/more...} when that is an absolute path, else null. */
    private static UnpackedCache absolute(String first, String... more) {
        if (first == null || first.isBlank()) {
            return null;
        }
        try {
            Path dir = Path.of(first, more);
            return dir.isAbsolute() ? new UnpackedCache(dir.normalize()) : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /**
     * The cache directory.
     *
     * @return the directory
     */
    public Path dir() {
        return dir;
    }

    /**
     * Reads the IDX file {@code file} as {@link IdxReader#read(Path, float)} does: from its unpacked copy when there
     * is one, else from the file, making the copy as it goes when the file is gzip-compressed ({@code .gz}).
     *
     * @param file the IDX file, compressed or raw
     * @param divisor what each value is divided by
     * @return the array
     * @throws IOException if the file or its copy cannot be read, or the file is malformed
     */
    public IdxArray read(Path file, float divisor) throws IOException {
        return readContents(file, divisor, false).toArray();
    }

    /** As {@link #read(Path, float)}, with {@link IdxReader#readContents}'s choice of keeping unsigned bytes. */
    IdxReader.Contents readContents(Path file, float divisor, boolean keepBytes) throws IOException {
        if (!file.getFileName().toString().endsWith(".gz")) {
            return IdxReader.readContents(file, divisor, null, keepBytes);
        }
        String stem = stem(file);
        Path copy = dir.resolve(stem + copyKey(file));
        if (Files.isRegularFile(copy)) {
            try {
                return IdxReader.readContents(copy, divisor, null, keepBytes).from(file);
            } catch (IdxFormatException e) {
                deleteQuietly(copy); // not a whole IDX file (a disk that lost it, an edit): made again below
            } catch (IOException e) {
                // Gone (another process replaced it) or unreadable (another user's cache): the source still reads.
            }
        }
        try (Fill fill = Fill.open(copy, stem, file)) {
            IdxReader.Contents contents = IdxReader.readContents(file, divisor, fill, keepBytes);
            fill.keep();
            return contents;
        }
    }

    /**
     * The name without {@code .gz} and a 64-bit FNV-1a hash of the file's real path,
     * {@code train-images-idx3-ubyte.1f2e3d4c5b6a7980.}: MNIST and Fashion-MNIST name their files alike. Not SHA-256:
     * setting up its provider took 45-50 ms of a cold JVM's start, and only a name is hashed here.
     */
    static String stem(Path file) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : realPath(file).getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xFF)) * 0x100000001b3L;
        }
        return baseName(file) + "." + HexFormat.of().toHexDigits(hash) + ".";
    }

    /**
     * The stem copies were named by before: 64 bits of the SHA-256 of the real path. Computed only after a new copy
     * has been written, so that the copy it replaces is deleted rather than left behind.
     */
    static String legacyStem(Path file) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(realPath(file).getBytes(StandardCharsets.UTF_8));
            return baseName(file) + "." + HexFormat.of().formatHex(digest, 0, 8) + ".";
        } catch (NoSuchAlgorithmException e) {
            return null; // every JVM has SHA-256; without it there is nothing to tidy up
        }
    }

    private static String baseName(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".gz".length());
    }

    private static String realPath(Path file) {
        try {
            return file.toRealPath().toString();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize().toString();
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException | SecurityException e) {
            // a read-only cache: the copy stays, and is not used
        }
    }

    /** The compressed file's size and modification time, {@code 26421856.1591315200000}. */
    private static String copyKey(Path file) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
        return attrs.size() + "." + attrs.lastModifiedTime().toMillis();
    }

    /**
     * The copy being written: a temporary file in the cache directory, renamed into place by {@link #keep()} and
     * deleted otherwise. If the directory cannot be written, or a write fails, it quietly writes nothing.
     */
    private static final class Fill extends OutputStream {
        private final Path target;
        private final String stem;
        /** The compressed file, to find the name older versions gave its copy. */
        private final Path source;
        private final Path tmp;
        private final FileChannel channel;
        private final OutputStream out;
        private long written;
        private boolean failed;

        private Fill(Path target, String stem, Path source, Path tmp, FileChannel channel) {
            this.target = target;
            this.stem = stem;
            this.source = source;
            this.tmp = tmp;
            this.channel = channel;
            this.out = channel == null ? null : new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
            this.failed = channel == null;
        }

        static Fill open(Path target, String stem, Path source) {
            Path tmp = null;
            try {
                Files.createDirectories(target.getParent());
                tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
                return new Fill(target, stem, source, tmp, FileChannel.open(tmp, StandardOpenOption.WRITE));
            } catch (IOException | UncheckedIOException | SecurityException e) {
                if (tmp != null) {
                    deleteQuietly(tmp);
                }
                return new Fill(target, stem, source, null, null);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (failed) {
                throw new IOException("the unpacked copy is not being written");
            }
            try {
                out.write(b, off, len);
                written += len;
            } catch (IOException e) {
                failed = true;
                throw e;
            }
        }

        /** Syncs the copy and renames it into place, replacing older copies of the same file. */
        void keep() {
            if (failed || written == 0) {
                return;
            }
            try {
                out.flush();
                channel.force(true);
                channel.close();
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
                deleteOlderCopies();
            } catch (IOException | RuntimeException e) {
                failed = true; // the read succeeded; only the copy (or the tidying up) did not
            }
        }

        /**
         * Other copies of the same file (other sizes or times: the file they were made from has changed; or named
         * the way older versions named them), and temporary files of it a day old (left by a process that was
         * killed while writing one).
         */
        private void deleteOlderCopies() throws IOException {
            String legacyStem = legacyStem(source);
            String tmpPrefix = "." + stem;
            String legacyTmpPrefix = legacyStem == null ? tmpPrefix : "." + legacyStem;
            long dayAgo = System.currentTimeMillis() - 24L * 3600 * 1000;
            try (DirectoryStream<Path> files = Files.newDirectoryStream(target.getParent())) {
                for (Path p : files) {
                    String name = p.getFileName().toString();
                    boolean olderCopy = (name.startsWith(stem) || legacyStem != null && name.startsWith(legacyStem))
                            && !p.equals(target);
                    boolean staleTmp = (name.startsWith(tmpPrefix) || name.startsWith(legacyTmpPrefix))
                            && name.endsWith(".tmp") && !p.equals(tmp)
                            && Files.getLastModifiedTime(p).toMillis() < dayAgo;
                    if (olderCopy || staleTmp) {
                        deleteQuietly(p);
                    }
                }
            }
        }

        /** Drops the copy unless it was kept; never fails (the read it served has succeeded or failed already). */
        @Override
        public void close() {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // nothing to keep from a channel that cannot close
                }
                deleteQuietly(tmp); // gone already when kept
            }
        }
    }
}
