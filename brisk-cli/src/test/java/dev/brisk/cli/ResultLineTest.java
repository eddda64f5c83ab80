package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ResultLineTest {
    @Test
    void exactFormat() {
        ResultLine r = new ResultLine("brisk", "compiled", "w1", 2, 12345.4, 1.934, 0.88499, 5, 512);
        assertEquals("RESULT framework=brisk mode=compiled workload=w1 threads=2 samples_per_s=12345 cpu_util=1.93"
                + " test_acc=0.8850 epochs=5 peak_rss_mb=512", r.format());
        assertTrue(r.format().matches(ResultLine.REGEX));
    }

    @Test
    void roundsThroughputAndPadsDecimals() {
        ResultLine r = new ResultLine("brisk", "eager", "w2", 1, 999.5, 1.0, 0.9, 3, 0);
        assertEquals("RESULT framework=brisk mode=eager workload=w2 threads=1 samples_per_s=1000 cpu_util=1.00"
                + " test_acc=0.9000 epochs=3 peak_rss_mb=0", r.format());
        assertTrue(r.format().matches(ResultLine.REGEX));
    }

    @Test
    void aWorkloadWithoutAccuracyReportsItsTestLossInItsPlace() {
        ResultLine r = new ResultLine("brisk", "compiled", "z3", 2, 30000, 1.9, TestMetric.LOSS, 0.27118, 5, 700);
        assertEquals("RESULT framework=brisk mode=compiled workload=z3 threads=2 samples_per_s=30000 cpu_util=1.90"
                + " test_loss=0.2712 epochs=5 peak_rss_mb=700", r.format());
        assertTrue(r.format().matches(ResultLine.REGEX));
        assertTrue(new ResultLine("brisk", "eager", "z3", 1, 1, 1, TestMetric.LOSS, 12.5, 1, 0).format()
                .matches(ResultLine.REGEX), "a loss may exceed 1");
    }

    @Test
    void independentOfTheDefaultLocale() {
        java.util.Locale saved = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            String s = new ResultLine("brisk", "compiled", "w1", 2, 1234567, 1.5, 0.5, 1, 2048).format();
            assertTrue(s.contains("samples_per_s=1234567 cpu_util=1.50 test_acc=0.5000"), s);
        } finally {
            java.util.Locale.setDefault(saved);
        }
    }

    @Test
    void parsesATwinsLine() {
        ResultLine r = ResultLine.parse("RESULT framework=pytorch-1.13.1+cpu mode=eager workload=z1 threads=2"
                + " samples_per_s=1062 cpu_util=1.97 test_acc=0.8811 epochs=2 peak_rss_mb=412");
        assertEquals(new ResultLine("pytorch-1.13.1+cpu", "eager", "z1", 2, 1062, 1.97, TestMetric.ACCURACY, 0.8811,
                2, 412), r);
    }

    @Test
    void parsesATestLossAndFieldsInAnyOrder() {
        ResultLine r = ResultLine.parse("RESULT workload=z3 framework=pytorch-2.1 mode=eager threads=1"
                + " samples_per_s=30000.5 cpu_util=0.99 epochs=5 peak_rss_mb=300 test_loss=0.0712 extra=ignored");
        assertEquals(TestMetric.LOSS, r.testMetric());
        assertEquals(0.0712, r.testValue());
        assertEquals(30000.5, r.samplesPerSecond());
        assertEquals("z3", r.workload());
    }

    @Test
    void parseIsTheInverseOfFormat() {
        ResultLine r = new ResultLine("brisk", "compiled", "z3", 2, 30000, 1.9, TestMetric.LOSS, 0.2712, 5, 700);
        assertEquals(r, ResultLine.parse(r.format()));
    }

    @Test
    void aLineWithoutAFieldOrWithABadValueIsAnErrorQuotingIt() {
        String noRss = "RESULT framework=pytorch-2.1 mode=eager workload=w1 threads=2 samples_per_s=100"
                + " cpu_util=1.00 test_acc=0.8000 epochs=2";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultLine.parse(noRss));
        assertTrue(e.getMessage().contains("without peak_rss_mb=") && e.getMessage().contains(noRss), e.getMessage());
        String badRate = noRss.replace("samples_per_s=100", "samples_per_s=fast") + " peak_rss_mb=1";
        e = assertThrows(IllegalArgumentException.class, () -> ResultLine.parse(badRate));
        assertTrue(e.getMessage().contains("samples_per_s=fast"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ResultLine.parse("epoch 1/2: loss 0.5"));
        assertTrue(e.getMessage().contains("not a RESULT line"), e.getMessage());
    }
}
