package dev.brisk.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * English text for language models: the fortune cookies of the Debian package {@code fortunes}
 * ({@code apt-get install fortunes}), about 2.6 million characters under {@link #DEFAULT_DIR}. The text is every
 * cookie file of the directory, in the order of the files' names, each as it is (UTF-8, cookies separated by lines
 * holding {@code %}); the {@code .dat} index files and the {@code .u8} links to the cookie files are left out, and so
 * is any other symbolic link. The order fixes which text comes last, so a held-out tail is the same everywhere.
 */
public final class Fortunes {
    /** Where the Debian package puts the cookie files. */
    public static final Path DEFAULT_DIR = Path.of("/usr/share/games/fortunes");
    private static final String HINT = "install it with 'apt-get install fortunes' or give the directory of the"
            + " fortune files";

    private Fortunes() {
    }

    /**
     * The cookie files of {@code dir}, in name order: regular files other than {@code .dat} and {@code .u8}.
     *
     * @param dir the directory
     * @return the files, at least one
     * @throws NoSuchFileException if the directory is missing or holds no cookie file
     * @throws IOException if it cannot be listed
     */
    public static List<Path> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "fortunes directory not found; " + HINT);
        }
        List<Path> out = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> !p.getFileName().toString().endsWith(".dat")
                            && !p.getFileName().toString().endsWith(".u8"))
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .forEach(out::add);
        }
        if (out.isEmpty()) {
            throw new NoSuchFileException(dir.toString(), null, "no fortune files in the directory; " + HINT);
        }
        return out;
    }

    /**
     * The whole text of the cookie files of {@code dir}, concatenated in name order.
     *
     * @param dir the directory, usually {@link #DEFAULT_DIR}
     * @return the text
     * @throws NoSuchFileException if the directory is missing or holds no cookie file
     * @throws DataFormatException naming the file, if one is not valid UTF-8
     * @throws IOException if a file cannot be read
     */
    public static String load(Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path f : files(dir)) {
            text.append(decode(f, Files.readAllBytes(f)));
        }
        return text.toString();
    }

    private static CharSequence decode(Path file, byte[] bytes) throws DataFormatException {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return utf8.decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new DataFormatException(file, -1, "not UTF-8 text (" + e + ")");
        }
    }
}
