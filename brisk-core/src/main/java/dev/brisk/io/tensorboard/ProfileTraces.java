package dev.brisk.io.tensorboard;

import dev.brisk.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.zip.GZIPOutputStream;

/**
 * Puts a Chrome-trace profile where TensorBoard's profile plugin looks for one:
 * {@code LOGDIR/plugins/profile/<yyyy_MM_dd_HH_mm_ss>/<host>.trace.json.gz}, the layout TensorFlow's profiler writes.
 * The plugin's trace viewer then shows the steps and kernel calls of a Brisk profile next to the scalars.
 */
public final class ProfileTraces {
    private static final DateTimeFormatter RUN_NAME = DateTimeFormatter.ofPattern("yyyy_MM_dd_HH_mm_ss");

    private ProfileTraces() {
    }

    /**
     * Copies {@code traceJson} gzip'd into {@code logDir}'s profile plugin directory; returns the file written.
     *
     * @param traceJson the Chrome-trace JSON file, as {@code Profile.writeChromeTrace} writes it
     * @param logDir the TensorBoard log directory
     * @return the {@code .trace.json.gz} file written under {@code plugins/profile/<run>/}
     * @throws IOException if the trace cannot be read or the copy cannot be written
     */
    public static Path export(Path traceJson, Path logDir) throws IOException {
        if (!Files.isRegularFile(traceJson)) {
            throw new IOException("no profile trace at " + traceJson + " to copy into " + logDir);
        }
        Path target = logDir.resolve("plugins").resolve("profile").resolve(LocalDateTime.now().format(RUN_NAME))
                .resolve(HostName.get() + ".trace.json.gz");
        AtomicFiles.write(target, out -> {
            GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16);
            Files.copy(traceJson, gz);
            gz.finish();
        });
        return target;
    }
}
