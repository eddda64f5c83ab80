package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk bench --peer torch}, with a shell script standing in for the PyTorch twins (run by /bin/sh as the
 * interpreter), so that the tests need neither Python nor torch: the twins run in the rounds and fill the
 * side-by-side table, and a peer that cannot run is one clear error before any run.
 */
class BenchPeerTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    /** Answers --help (the check) with an argparse-like usage, and a run with a RESULT line echoing its options. */
    private static final String FAKE_TWIN = """
            w=; t=; e=
            while [ $# -gt 0 ]; do
              case "$1" in
                --help) echo "usage: fake [--workload {w1,w2,z1,z2,z3,z4}]"; exit 0 ;;
                --workload) w=$2; shift ;;
                --threads) t=$2; shift ;;
                --epochs) e=$2; shift ;;
              esac
              shift
            done
            echo "epoch 1/$e: loss 0.5"
            echo "RESULT framework=pytorch-0.0-fake mode=eager workload=$w threads=$t samples_per_s=1000 \\
            cpu_util=0.99 test_acc=0.5000 epochs=$e peak_rss_mb=321"
            """;

    private static Path script(Path dir, String text) throws IOException {
        return Files.writeString(dir.resolve("twin.sh"), text);
    }

    @Test
    void theTwinRunsInEveryRoundAndFillsTheSideBySideTable(@TempDir Path dir) throws IOException {
        Path twin = script(dir, FAKE_TWIN);
        CliRun run = CliRun.run("bench", "--workloads", "w1", "--modes", "compiled", "--threads", "1", "--epochs",
                "1", "--limit", "256", "--skip-gemm", "--data", FIXTURE.toString(), "--peer", "torch", "--python",
                "/bin/sh", "--peer-script", twin.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("peer: /bin/sh " + twin), run.out());
        assertTrue(run.out().contains("running w1 peer threads=1 ..."), run.out());
        assertTrue(run.out().contains("side by side with pytorch-0.0-fake"), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.matches(
                "w1 +1 +\\d+ +- +1000 +\\d+\\.\\d\\dx +acc 0\\.\\d{4} +- +acc 0\\.5000 +\\d+ +- +321 +- +-")),
                run.out());
        List<String> results = run.out().lines().filter(l -> l.startsWith("RESULT")).toList();
        assertEquals(2, results.size(), run.out());
        assertTrue(results.get(1).startsWith("RESULT framework=pytorch-0.0-fake mode=eager workload=w1 threads=1 "),
                run.out());
    }

    @Test
    void aMissingInterpreterIsOneErrorNamingItBeforeAnyRun() {
        CliRun run = CliRun.run("bench", "--workloads", "w1", "--peer", "torch", "--python",
                "/nonexistent/python9");
        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().contains("cannot run the peer's interpreter '/nonexistent/python9' (--python)"),
                run.err());
        assertTrue(!run.out().contains("running"), run.out());
    }

    @Test
    void aFrameworkThatDoesNotImportIsOneErrorWithTheInterpretersMessage(@TempDir Path dir) throws IOException {
        Path twin = script(dir, "echo \"ModuleNotFoundError: No module named 'torch'\" >&2; exit 1\n");
        CliRun run = CliRun.run("bench", "--workloads", "z1", "--peer", "torch", "--python", "/bin/sh",
                "--peer-script", twin.toString());
        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().contains("the peer does not run: '/bin/sh " + twin + " --help' exited with 1"),
                run.err());
        assertTrue(run.err().contains("No module named 'torch'"), run.err());
        assertTrue(!run.out().contains("running"), run.out());
    }

    @Test
    void aWorkloadWithoutATwinIsAnErrorBeforeAnyRun(@TempDir Path dir) throws IOException {
        Path twin = script(dir, "echo 'usage: fake [--workload {w1,w2}]'\n");
        CliRun run = CliRun.run("bench", "--workloads", "z1", "--peer", "torch", "--python", "/bin/sh",
                "--peer-script", twin.toString());
        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().contains("has no twin of workload z1 (it has w1, w2)"), run.err());
    }

    @Test
    void theTwinsScriptOfTheRepositoryIsFound() throws IOException {
        Path found = PeerScript.locate(PeerScript.TORCH_SCRIPT);
        assertTrue(found.endsWith(Path.of("tools", "peers", "torch_workloads.py")), found.toString());
    }

    @Test
    void aPeerResultsFileWithoutAConfigurationNamesItBeforeAnyRun(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("torch.txt"), "RESULT framework=pytorch-2.1 mode=eager workload=w1"
                + " threads=1 samples_per_s=100 cpu_util=1.00 test_acc=0.8000 epochs=2 peak_rss_mb=1\n");
        CliRun run = CliRun.run("bench", "--workloads", "w1", "--threads", "1,2", "--peer-results", file.toString());
        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().contains(file + " has no RESULT line of a twin of w1 at threads=2 with epochs=2"),
                run.err());
        assertTrue(!run.out().contains("running"), run.out());
    }

    @Test
    void peerOptionsAreCheckedAsUsage() {
        assertEquals(2, CliRun.run("bench", "--peer", "tensorflow").code());
        assertEquals(2, CliRun.run("bench", "--python", "python3").code());
        assertEquals(2, CliRun.run("bench", "--peer", "torch", "--peer-results", "x.txt").code());
    }
}
