package dev.brisk.spark;

import dev.brisk.keras.KerasModels;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.broadcast.Broadcast;

/**
 * Builds each worker's model from the driver's model written as a {@code .keras} file (architecture, compile
 * settings and initial weights, through brisk-keras), broadcast once as bytes: the workers need no code of the
 * user's. Models brisk-keras cannot write (a learning-rate schedule or a loss of the user's own) take a
 * {@link ModelFactory} instead.
 */
final class KerasBytesFactory implements ModelFactory {
    private static final long serialVersionUID = 1L;

    private final Broadcast<byte[]> bytes;

    KerasBytesFactory(Broadcast<byte[]> bytes) {
        this.bytes = bytes;
    }

    /**
     * The model as {@code .keras} bytes.
     *
     * @throws IllegalArgumentException when brisk-keras cannot write it, saying to use a factory
     */
    static byte[] write(Model model) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile("brisk-spark-model", ".keras");
            KerasModels.save(model, tmp);
            return Files.readAllBytes(tmp);
        } catch (IOException e) {
            throw new IllegalArgumentException("model '" + model.name() + "' cannot travel to the workers as a "
                    + ".keras file (" + e.getMessage() + "): give SparkFit.of(factory) a ModelFactory that builds "
                    + "it on every executor", e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    @Override
    public Model create() {
        Path tmp = null;
        try {
            tmp = Files.createTempFile("brisk-spark-model", ".keras");
            Files.write(tmp, bytes.value());
            return KerasModels.load(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("could not load the driver's model on this executor: " + e.getMessage(),
                    e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static void deleteQuietly(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // A temporary file left behind costs nothing but its bytes.
            }
        }
    }
}
