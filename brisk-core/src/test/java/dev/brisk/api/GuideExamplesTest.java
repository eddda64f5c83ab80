package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.callbacks.EarlyStopping;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.Monitor;
import dev.brisk.data.Batch;
import dev.brisk.data.CsvDataset;
import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.data.preprocessing.Normalization;
import dev.brisk.data.preprocessing.Vocabulary;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Input;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs every snippet of docs/guide.md, and checks that the guide's Java blocks are exactly the regions between the
 * {@code guide:begin} and {@code guide:end} markers of this file, so that the guide cannot show code that does not
 * compile or no longer works.
 */
class GuideExamplesTest {
    private static final Path GUIDE = Path.of("../docs/guide.md");
    private static final Path THIS = Path.of("src/test/java/dev/brisk/api/GuideExamplesTest.java");
    private static final Path CSV = Path.of("../brisk-cli/src/test/resources/user-data/houses.csv");

    @Test
    void theGuidesSnippetsAreTheOnesRunHere() throws IOException {
        List<String> regions = new ArrayList<>();
        Matcher m = Pattern.compile("// guide:begin\\n(.*?)\\n[ ]*// guide:end", Pattern.DOTALL)
                .matcher(Files.readString(THIS));
        while (m.find()) {
            regions.add(dedent(m.group(1)));
        }
        Matcher g = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL).matcher(Files.readString(GUIDE));
        int blocks = 0;
        while (g.find()) {
            blocks++;
            String block = dedent(g.group(1));
            if (!regions.contains(block)) {
                fail("docs/guide.md shows a Java block that GuideExamplesTest does not run:\n" + block);
            }
        }
        assertEquals(regions.size(), blocks, "every region here is shown in the guide");
    }

    private static String dedent(String text) {
        List<String> lines = text.lines().toList();
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return b.toString().strip();
    }

    @Test
    void twoInputsTwoOutputsFromAPipeline() {
        RandomSeed.set(1);
        int n = 96;
        Tensor images = TestData.gaussian(2, n, 8, 8, 1);
        Tensor metadata = TestData.gaussian(3, n, 4);
        float[] c = new float[n];
        float[] s = new float[n * 1];
        for (int i = 0; i < n; i++) {
            c[i] = metadata.get(i * 4) > 0 ? (images.get(i * 64) > 0 ? 2 : 1) : 0;
            s[i] = metadata.get(i * 4 + 1) + images.get(i * 64 + 9);
        }
        Tensor classes = Tensor.of(c, n);
        Tensor scores = Tensor.of(s, n, 1);
        // guide:begin
        SymbolicTensor image = Input.named("image", 8, 8, 1);
        SymbolicTensor meta = Input.named("meta", 4);
        SymbolicTensor seen = Layers.flatten().apply(Layers.conv2d(4, 3, Activation.RELU).apply(image));
        SymbolicTensor joined = Layers.concatenate().apply(seen, Layers.dense(8, Activation.RELU).apply(meta));
        SymbolicTensor cls = new Dense(3, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(),
                null, "cls").apply(joined);
        SymbolicTensor score = new Dense(1, Activation.LINEAR, true, Initializer.glorotUniform(), Initializer.zeros(),
                null, "score").apply(joined);
        Model model = Model.of(List.of(image, meta), List.of(cls, score));
        model.compile(Optimizers.adam(1e-2f),
                Map.of("cls", Losses.sparseCategoricalCrossentropy(true), "score", Losses.meanSquaredError()),
                Map.of("score", 0.5f),                                      // loss_weights; absent outputs weigh 1
                Map.of("cls", List.of(Metrics.accuracy())));               // metrics per output

        Pipeline<Batch> train = Pipeline.fromArrays(
                        Map.of("image", images, "meta", metadata),        // by input name, in any order
                        Map.of("cls", classes, "score", scores), null)     // by output name; null: no sample weights
                .shuffle(images.shape().dim(0), 42)
                .batch(16);
        History history = model.fit(train, Fit.epochs(3));
        Map<String, Double> logs = model.evaluate(new Tensor[] {images, metadata}, new Tensor[] {classes, scores}, 16);
        // logs: loss, cls_loss, score_loss (each output's weighted loss), cls_accuracy
        Tensor[] predictions = model.predict(new Tensor[] {images, metadata}, 16);
        // guide:end
        assertEquals(List.of("loss", "cls_loss", "score_loss", "cls_accuracy"), List.copyOf(logs.keySet()));
        assertEquals(logs.get("cls_loss") + logs.get("score_loss"), logs.get("loss"), 1e-5);
        assertTrue(history.get("loss").get(2) < history.get("loss").get(0), history.toString());
        assertEquals(2, predictions.length);
        assertEquals(Shape.of(n, 1), predictions[1].shape());
    }

    @Test
    void csvRegressionWithNormalizationAndEarlyStopping() throws IOException {
        RandomSeed.set(3);
        Path csvFile = CSV;
        // guide:begin
        CsvDataset csv = CsvDataset.builder(csvFile)
                .label("price")
                .fillMissing(0f, "NA")
                .build();
        Normalization norm = Normalization.adapt(csv.take(192).map(Sample::features));
        Pipeline<Batch> train = csv.take(192).map(Sample.features(norm)).cache().shuffle(192, 1).batch(16);
        Pipeline<Batch> validation = csv.skip(192).map(Sample.features(norm)).cache().batch(48);

        Model model = Sequential.of(Layers.input(3), Layers.dense(16, Activation.RELU), Layers.dense(1));
        model.compile(Optimizers.adam(1e-2f), Losses.meanSquaredError(), Metrics.meanAbsoluteError());
        History history = model.fit(train, Fit.epochs(200).verbose(0).validation(validation)
                .callbacks(new EarlyStopping("val_loss", 0, 10, Monitor.MIN, true)));   // keeps the best weights
        // guide:end
        double best = history.get("val_loss").stream().mapToDouble(d -> d).min().orElseThrow();
        assertEquals(best, model.evaluate(validation).get("loss"), 1e-4, "the best weights were kept");
        // The held-out prices' variance is about 45 (the loss of predicting their mean); a model that learned them
        // misses by far less, even on the rows whose missing cells were filled with 0.
        assertTrue(best < 10, "validation MSE " + best);
    }

    @Test
    void classWeightsSampleWeightsAndASplit() {
        RandomSeed.set(4);
        int n = 200;
        Tensor x = TestData.gaussian(5, n, 4);
        float[] labels = new float[n];
        float[] perSample = new float[n];
        for (int i = 0; i < n; i++) {
            labels[i] = x.get(i * 4) > 1 ? 1 : 0;
            perSample[i] = 1 + (i % 3);
        }
        Tensor y = Tensor.of(labels, n);
        Model model = Sequential.of(Layers.input(4), Layers.dense(2));
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        // guide:begin
        Map<Integer, Float> classWeight = Map.of(0, 1f, 1, 5f);           // the rare class 1 counts five times
        model.fit(x, y, Fit.epochs(5).verbose(0).classWeight(classWeight).validationSplit(0.2f));

        Tensor weights = Tensor.of(perSample, x.shape().dim(0));         // one weight per sample
        model.fit(x, y, Fit.epochs(5).verbose(0).sampleWeight(weights));

        Pipeline<Batch> weighted = Pipeline.fromArrays(x, y)
                .map(s -> s.withWeight(s.label().get(0) == 1f ? 5f : 1f))  // a weight column in a pipeline
                .batch(32);
        model.fit(weighted, Fit.epochs(5).verbose(0));
        // guide:end
        // The rare class, weighted up, is found: most of its samples are predicted as class 1.
        Tensor p = model.predict(x);
        int rare = 0;
        int found = 0;
        for (int i = 0; i < n; i++) {
            if (labels[i] == 1) {
                rare++;
                found += p.get(i * 2 + 1) > p.get(i * 2) ? 1 : 0;
            }
        }
        assertTrue(rare > 0 && found > 0.7 * rare, found + " of " + rare + " rare samples found");
    }

    /** Reviews of 3 to 12 words; the label says whether "good" is among them. */
    @Test
    void variableLengthTextThroughAMaskedRecurrentLayer() {
        RandomSeed.set(6);
        String[] filler = {"the", "film", "was", "a", "plot", "and", "cast", "very", "quite", "long"};
        java.util.SplittableRandom r = new java.util.SplittableRandom(2);
        List<String> texts = new ArrayList<>();
        float[] labels = new float[240];
        for (int i = 0; i < labels.length; i++) {
            int n = 3 + r.nextInt(10);
            labels[i] = r.nextInt(2);
            StringBuilder b = new StringBuilder();
            for (int w = 0; w < n; w++) {
                b.append(w == r.nextInt(n) && labels[i] == 1 ? "good" : filler[r.nextInt(filler.length)]).append(' ');
            }
            if (labels[i] == 1 && !b.toString().contains("good")) {
                b.append("good");
            }
            texts.add(b.toString());
        }
        // guide:begin
        Vocabulary vocabulary = Vocabulary.ofWords(String.join(" ", texts), 0);
        var lookup = vocabulary.wordLookup();                       // text -> INT32 ids, as many as its words
        Pipeline<Batch> train = Pipeline.range(texts.size())
                .map(i -> new Sample(lookup.apply(texts.get(i)), Tensor.scalar(labels[i])), 2)
                .shuffle(texts.size(), 7)                           // a new order every epoch
                .paddedBatch(32, false)                             // zeros up to each batch's longest
                .prefetch(2);
        Model model = Sequential.of(
                Layers.input(DType.INT32, Shape.OPEN),              // Keras: Input(shape=(None,), dtype="int32")
                Layers.embedding(vocabulary.size(), 16, true),      // maskZero: the padding is skipped
                Layers.lstm(32),                                    // or gru, conv1d + globalAveragePooling1d, ...
                Layers.dense(2));
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        History history = model.fit(train, Fit.epochs(8).verbose(0));
        // guide:end
        assertTrue(history.last("accuracy") > 0.9, history.toString());
    }

    // guide:begin
    /** y = x * scale + offset, with one learned scale and offset per feature. */
    class ScaleShift extends Layer {
        private Variable scale;
        private Variable offset;

        ScaleShift() {
            super(null);                                        // an automatic name
        }

        @Override
        public Shape outputShape(List<Shape> inputShapes) {
            return inputShapes.get(0);
        }

        @Override
        protected void build(List<Shape> inputShapes) {
            Shape features = Shape.of(inputShapes.get(0).dim(-1));
            scale = addWeight("scale", features, Initializer.ones(), true, null, 0, 0);
            offset = addWeight("offset", features, Initializer.zeros(), true, null, 0, 0);
        }

        @Override
        protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
            return g.add(g.mul(inputs.get(0), g.variable(scale)), g.variable(offset));
        }
    }
    // guide:end

    // guide:begin
    /** The mean fourth power of the error: punishes large errors more than the squared error. */
    class MeanFourthPower implements Loss {
        @Override
        public String name() {
            return "mean_fourth_power";
        }

        @Override
        public Node perStep(Graph g, Node yTrue, Node yPred) {
            Node error = g.sub(yPred, g.reshape(yTrue, yPred.shape()));
            Node squared = g.mul(error, error);
            return g.mean(g.mul(squared, squared), false, -1);
        }

        @Override
        public Node compute(Graph g, Node yTrue, Node yPred) {
            return g.meanAll(perStep(g, yTrue, yPred));
        }
    }
    // guide:end

    @Test
    void aCustomLayerAndACustomLoss() {
        RandomSeed.set(6);
        int n = 128;
        Tensor features = TestData.gaussian(7, n, 3);
        float[] t = new float[n];
        for (int i = 0; i < n; i++) {
            t[i] = 0.5f * features.get(i * 3) - features.get(i * 3 + 2);
        }
        Tensor targets = Tensor.of(t, n, 1);
        // guide:begin
        Model custom = Sequential.of(Layers.input(3), new ScaleShift(), Layers.dense(1));
        custom.compile(Optimizers.adam(1e-2f), new MeanFourthPower());
        custom.fit(features, targets, Fit.epochs(20).batchSize(16).verbose(0));
        // guide:end
        Tensor p = custom.predict(features);
        double fourth = 0;
        for (int i = 0; i < n; i++) {
            double e = p.get(i) - t[i];
            fourth += e * e * e * e;
        }
        double loss = custom.evaluate(features, targets, 16).get("loss");
        assertEquals(fourth / n, loss, 1e-4 * Math.max(1, loss), "the custom loss is the mean fourth power");
        assertTrue(loss < 0.05, "the model learned the linear target: " + loss);
        assertEquals(2, custom.layers().stream().filter(l -> l instanceof ScaleShift).findFirst().orElseThrow()
                .weights().size(), "ScaleShift has its scale and offset");
    }
}
