package io.servebench.cli;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trial's memory does not grow with its length: records go to disk as they complete and the metrics are taken as
 * they come. 30,000 requests of 100 tokens (3 million token events) in a harness of 64 MB of heap, in virtual time;
 * the harness of 80655de, which kept every record until the trial's end, ran out of memory on it.
 */
class BoundedMemoryTest {

    @Test
    void thirtyThousandRequestsOfAHundredTokensRunInSixtyFourMegabytesOfHeap(@TempDir Path tmp) throws Exception {
        runsInSixtyFourMegabytes(tmp, "rate=100", 30_000);
    }

    /**
     * Sent all at once, every request waits from the start, so every token event waits for the last request to end
     * before the peak throughput's window takes it: the waiting events are the records' own arrays, 12 bytes each.
     * Before stop 77 each was copied into a queue of 16 bytes that doubled as it grew: 30,000 such requests ran out of
     * 64 MB after 5,243 of them (and of 128 MB after 20,972), 20,000 after 10,486. 20,000 here leave room under 64 MB
     * for a slower machine's collector.
     */
    @Test
    void twentyThousandRequestsSentAllAtOnceRunInSixtyFourMegabytesOfHeap(@TempDir Path tmp) throws Exception {
        runsInSixtyFourMegabytes(tmp, "profile=throughput", 20_000);
    }

    private static void runsInSixtyFourMegabytes(Path tmp, String load, int requests) throws Exception {
        Path out = tmp.resolve("run");
        Process harness = new ProcessBuilder(HarnessJvm.command(List.of("-Xmx64m"), List.of("SimStudy.baseline",
                "--simulate=virtual", "-p", "dataset=synthetic:in=fixed(50),out=fixed(100)", "-p", load, "-p",
                "requests=" + requests, "-p", "warmup=0", "-o", out.toString()))).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        assertThat(harness.waitFor(3, TimeUnit.MINUTES)).as("the harness ended within 3 minutes").isTrue();
        String output = Files.readString(tmp.resolve("out.txt"));
        assertThat(harness.exitValue()).as(output).isZero();
        assertThat(output).doesNotContain("OutOfMemoryError");
        List<BlockResult> blocks = RunJournal.read(out);
        // all at once, the study's two rates (@Param) are one trial: its blocks share its measurement
        assertThat(blocks).isNotEmpty().extracting(BlockResult::trialId).containsOnly(blocks.get(0).trialId());
        assertThat(blocks.get(0).repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(requests);
        assertThat(blocks.get(0).repetitions().get(0).tokenEvents()).isGreaterThan(requests * 97L);
        assertThat(blocks.get(0).repetitions().get(0).value(Metric.HARNESS_HEAP_PEAK).orElseThrow()).isLessThan(64);
    }
}
