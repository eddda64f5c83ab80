package dev.brisk.data;

import dev.brisk.tensor.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regenerates the test fixture {@code src/test/resources/fashion-mnist-mini}: the first {@code n} (default 1000)
 * training and test samples of the real Fashion-MNIST, as gzip IDX files with the original names.
 *
 * <p>Run from {@code brisk-core} after {@code mvn test-compile}:
 * {@code java -cp target/classes:target/test-classes dev.brisk.data.MakeFashionMnistMini
 * /usr/share/datasets/fashion-mnist src/test/resources/fashion-mnist-mini 1000}
 */
public final class MakeFashionMnistMini {
    private MakeFashionMnistMini() {
    }

    public static void main(String[] args) throws IOException {
        Path from = Path.of(args.length > 0 ? args[0] : FashionMnist.DEFAULT_DIR.toString());
        Path to = Path.of(args.length > 1 ? args[1] : "src/test/resources/fashion-mnist-mini");
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        Files.createDirectories(to);
        for (String name : new String[] {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
            IdxArray full = IdxReader.read(from.resolve(name + ".gz"));
            Shape shape = full.shape().withDim(0, n);
            byte[] data = IdxBytes.toUbytes(full.values(), 0, shape.size());
            byte[] gz = IdxBytes.gzip(IdxBytes.ubyte(shape.dims(), data));
            Files.write(to.resolve(name + ".gz"), gz);
            System.out.println(to.resolve(name + ".gz") + ": " + shape + ", " + gz.length + " bytes");
        }
    }
}
