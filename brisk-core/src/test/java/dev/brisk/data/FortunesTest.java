package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fortune files of a directory: which files, in which order, and the errors that name the directory or file. */
class FortunesTest {
    @TempDir
    Path dir;

    @Test
    void cookieFilesAreReadInNameOrderWithoutIndexesAndLinks() throws IOException {
        Files.writeString(dir.resolve("zippy"), "Yow!\n%\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("art"), "caf\u00e9\r\n%\n", StandardCharsets.UTF_8);
        Files.write(dir.resolve("art.dat"), new byte[] {0, 0, 0, 2, (byte) 0xff});
        Files.createSymbolicLink(dir.resolve("art.u8"), dir.resolve("art"));
        Files.createSymbolicLink(dir.resolve("bart"), dir.resolve("zippy"));
        Files.createDirectory(dir.resolve("sub"));
        assertEquals(List.of(dir.resolve("art"), dir.resolve("zippy")), Fortunes.files(dir));
        // UTF-8 decoded, carriage returns kept as they are.
        assertEquals("caf\u00e9\r\n%\nYow!\n%\n", Fortunes.load(dir));
    }

    @Test
    void aMissingDirectoryOrOneWithoutCookiesSaysHowToInstallThem() throws IOException {
        NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                () -> Fortunes.load(dir.resolve("nope")));
        assertTrue(missing.getMessage().contains("nope") && missing.getMessage().contains("apt-get install fortunes"),
                missing.getMessage());
        Files.write(dir.resolve("only.dat"), new byte[] {1});
        NoSuchFileException empty = assertThrows(NoSuchFileException.class, () -> Fortunes.load(dir));
        assertTrue(empty.getMessage().contains("no fortune files"), empty.getMessage());
    }

    @Test
    void aFileThatIsNotUtf8IsNamed() throws IOException {
        Files.write(dir.resolve("latin1"), new byte[] {'c', 'a', 'f', (byte) 0xe9, '\n'});
        DataFormatException e = assertThrows(DataFormatException.class, () -> Fortunes.load(dir));
        assertTrue(e.getMessage().contains("latin1") && e.getMessage().contains("not UTF-8"), e.getMessage());
    }
}
