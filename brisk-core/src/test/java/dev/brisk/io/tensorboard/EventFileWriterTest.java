package dev.brisk.io.tensorboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tbproto.DataClass;
import dev.brisk.tbproto.DataType;
import dev.brisk.tbproto.Event;
import dev.brisk.tbproto.HistogramProto;
import dev.brisk.tbproto.Summary;
import dev.brisk.tbproto.TextPluginData;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Event files as TensorBoard's own schema and TFRecord framing read them, by the independent test reader. */
class EventFileWriterTest {
    @TempDir
    Path dir;

    @Test
    void theReadersCrc32cIsCastagnoli() {
        // The check value of CRC-32C: crc("123456789").
        assertEquals(0xE3069283, EventFileReader.crc32c("123456789".getBytes(StandardCharsets.US_ASCII)));
        SplittableRandom r = new SplittableRandom(1);
        for (int n : new int[] {0, 1, 7, 8, 1000}) {
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) r.nextInt();
            }
            CRC32C jdk = new CRC32C();
            jdk.update(b);
            assertEquals((int) jdk.getValue(), EventFileReader.crc32c(b), "length " + n);
        }
    }

    @Test
    void firstEventIsTheFileVersionAndTheNameIsTensorFlows() throws IOException {
        double before = System.currentTimeMillis() / 1000.0;
        Path file;
        try (EventFileWriter w = EventFileWriter.open(dir.resolve("run"))) {
            file = w.file();
        }
        assertEquals(dir.resolve("run"), file.getParent());
        assertTrue(file.getFileName().toString().matches("events\\.out\\.tfevents\\.\\d{10}\\.[A-Za-z0-9._-]+"),
                file.getFileName().toString());
        List<Event> events = EventFileReader.read(file);
        assertEquals(1, events.size());
        Event first = events.get(0);
        assertEquals(Event.WhatCase.FILE_VERSION, first.getWhatCase());
        assertEquals("brain.Event:2", first.getFileVersion());
        assertEquals("brisk", first.getSourceMetadata().getWriter());
        assertEquals(0, first.getStep());
        assertTrue(first.getWallTime() >= before - 1 && first.getWallTime() <= System.currentTimeMillis() / 1e3 + 1,
                "wall time " + first.getWallTime());
    }

    @Test
    void twoWritersInOneDirectoryGetTwoFiles() throws IOException {
        try (EventFileWriter a = EventFileWriter.open(dir); EventFileWriter b = EventFileWriter.open(dir)) {
            assertNotEquals(a.file(), b.file());
        }
    }

    @Test
    void scalarsKeepTagStepAndValueIncludingZero() throws IOException {
        Path file;
        try (EventFileWriter w = EventFileWriter.open(dir)) {
            w.scalar("epoch_loss", 0, 1.25);
            w.scalar("epoch_loss", 1, 0.0);
            w.scalar("batch/with space", 5_000_000_000L, -3.5e-7);
            w.scalar("negative_step", -1, Double.NaN);
            file = w.file();
        }
        List<Event> events = EventFileReader.read(file);
        assertEquals(5, events.size());
        double lastTime = 0;
        for (Event e : events) {
            assertTrue(e.getWallTime() >= lastTime, "wall times do not go back");
            lastTime = e.getWallTime();
        }
        Summary.Value v0 = only(events.get(1));
        assertEquals("epoch_loss", v0.getTag());
        assertEquals(0, events.get(1).getStep());
        assertEquals(1.25f, v0.getSimpleValue());
        Summary.Value v1 = only(events.get(2));
        assertEquals(Summary.Value.ValueCase.SIMPLE_VALUE, v1.getValueCase(), "a 0.0 scalar is still present");
        assertEquals(0f, v1.getSimpleValue());
        assertEquals(1, events.get(2).getStep());
        assertEquals("batch/with space", only(events.get(3)).getTag());
        assertEquals(5_000_000_000L, events.get(3).getStep());
        assertEquals(-3.5e-7f, only(events.get(3)).getSimpleValue());
        assertEquals(-1, events.get(4).getStep());
        assertTrue(Float.isNaN(only(events.get(4)).getSimpleValue()));
    }

    @Test
    void histogramsAreHistogramProtos() throws IOException {
        Path file;
        try (EventFileWriter w = EventFileWriter.open(dir)) {
            w.histogram("w/histogram", 3, Histogram.of(new float[] {0, 1, 2, 3, Float.NaN}, 0, 5, 2));
            w.histogram("const", 4, Histogram.of(Tensor.of(new float[] {0.5f, 0.5f, 0.5f}, 3)));
            file = w.file();
        }
        List<Event> events = EventFileReader.read(file);
        Summary.Value v = only(events.get(1));
        assertEquals("w/histogram", v.getTag());
        assertEquals(3, events.get(1).getStep());
        HistogramProto h = v.getHisto();
        assertEquals(0, h.getMin());
        assertEquals(3, h.getMax());
        assertEquals(4, h.getNum(), "NaN is left out");
        assertEquals(6, h.getSum());
        assertEquals(14, h.getSumSquares());
        assertEquals(List.of(1.5, 3.0), h.getBucketLimitList());
        assertEquals(List.of(2.0, 2.0), h.getBucketList());

        HistogramProto c = only(events.get(2)).getHisto();
        assertEquals(0.5, c.getMin());
        assertEquals(0.5, c.getMax());
        assertEquals(List.of(0.5), c.getBucketLimitList());
        assertEquals(List.of(3.0), c.getBucketList());
    }

    @Test
    void histogramBucketsCoverEveryValue() {
        SplittableRandom r = new SplittableRandom(3);
        float[] v = new float[10_000];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
        }
        Histogram h = Histogram.of(v, 0, v.length, Histogram.DEFAULT_BUCKETS);
        double[] limits = h.bucketLimits();
        double[] counts = h.bucketCounts();
        assertEquals(30, limits.length);
        assertEquals(v.length, h.count());
        assertEquals(v.length, java.util.Arrays.stream(counts).sum());
        for (int b = 1; b < limits.length; b++) {
            assertTrue(limits[b] > limits[b - 1]);
        }
        assertEquals(h.max(), limits[limits.length - 1]);
        // Each value lies in its bucket: (limit[b-1], limit[b]] up to rounding at the edges.
        int inFirst = 0;
        for (float x : v) {
            inFirst += x < limits[0] ? 1 : 0;
        }
        assertTrue(Math.abs(inFirst - counts[0]) <= 1, inFirst + " vs " + counts[0]);
        Histogram empty = Histogram.of(new float[] {Float.NaN}, 0, 1, 30);
        assertEquals(0, empty.count());
        assertArrayEquals(new double[] {0}, empty.bucketCounts());
    }

    @Test
    void textIsAStringTensorForTheTextPlugin() throws IOException {
        String text = "    Model: \"mlp\"\n    Total params: 1,234 — ünïcode\n";
        Path file;
        try (EventFileWriter w = EventFileWriter.open(dir)) {
            w.text("model_summary", 0, text);
            file = w.file();
        }
        Summary.Value v = only(EventFileReader.read(file).get(1));
        assertEquals("model_summary", v.getTag());
        assertEquals("text", v.getMetadata().getPluginData().getPluginName());
        assertEquals(TextPluginData.getDefaultInstance(),
                TextPluginData.parseFrom(v.getMetadata().getPluginData().getContent()), "version 0");
        assertEquals(DataClass.DATA_CLASS_TENSOR, v.getMetadata().getDataClass());
        assertEquals(Summary.Value.ValueCase.TENSOR, v.getValueCase());
        assertEquals(DataType.DT_STRING, v.getTensor().getDtype());
        assertTrue(v.getTensor().hasTensorShape());
        assertEquals(0, v.getTensor().getTensorShape().getDimCount(), "a scalar string");
        assertEquals(1, v.getTensor().getStringValCount());
        assertEquals(text, v.getTensor().getStringVal(0).toStringUtf8());
    }

    @Test
    void theReaderRejectsACorruptRecord() throws IOException {
        Path file;
        try (EventFileWriter w = EventFileWriter.open(dir)) {
            w.scalar("x", 1, 2);
            file = w.file();
        }
        byte[] b = Files.readAllBytes(file);
        b[b.length - 6] ^= 0x10; // inside the last record's data
        Files.write(file, b);
        IOException e = assertThrows(IOException.class, () -> EventFileReader.read(file));
        assertTrue(e.getMessage().contains("bad data checksum"), e.getMessage());
        b[b.length - 6] ^= 0x10;
        b[2] ^= 0x01; // the first record's length
        Files.write(file, b);
        e = assertThrows(IOException.class, () -> EventFileReader.read(file));
        assertTrue(e.getMessage().contains("bad length checksum"), e.getMessage());
    }

    @Test
    void errorsNameTheFile() throws IOException {
        Path notADir = Files.writeString(dir.resolve("taken"), "a file, not a directory");
        IOException e = assertThrows(IOException.class, () -> EventFileWriter.open(notADir.resolve("train")));
        assertTrue(e.getMessage().contains(notADir.toString()), e.getMessage());

        EventFileWriter w = EventFileWriter.open(dir.resolve("run"));
        w.close();
        w.close(); // twice is fine
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> w.scalar("x", 0, 1));
        assertTrue(closed.getMessage().contains(w.file().toString()), closed.getMessage());
    }

    @Test
    void hostNamesAreSafeInFileNames() {
        assertEquals("a_b.example-1_x", HostName.sanitize("a/b.example-1 x"));
        assertEquals("localhost", HostName.sanitize(""));
        assertTrue(HostName.get().matches("[A-Za-z0-9._-]+"), HostName.get());
    }

    private static Summary.Value only(Event e) {
        assertEquals(Event.WhatCase.SUMMARY, e.getWhatCase());
        assertEquals(1, e.getSummary().getValueCount());
        return e.getSummary().getValue(0);
    }
}
