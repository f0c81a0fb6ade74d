package io.servebench.cli;

import io.servebench.results.BlockResult;
import io.servebench.results.Metric;
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
        Path out = tmp.resolve("run");
        Process harness = new ProcessBuilder(HarnessJvm.command(List.of("-Xmx64m"), List.of("SimStudy.baseline",
                "--simulate=virtual", "-p", "dataset=synthetic:in=fixed(50),out=fixed(100)", "-p", "rate=100", "-p",
                "requests=30000", "-p", "warmup=0", "-o", out.toString()))).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        assertThat(harness.waitFor(3, TimeUnit.MINUTES)).as("the harness ended within 3 minutes").isTrue();
        String output = Files.readString(tmp.resolve("out.txt"));
        assertThat(harness.exitValue()).as(output).isZero();
        assertThat(output).doesNotContain("OutOfMemoryError");
        List<BlockResult> blocks = RunJournal.read(out);
        assertThat(blocks).hasSize(1);
        assertThat(blocks.get(0).repetitions().get(0).value(Metric.SUCCESSFUL_REQUESTS)).hasValue(30_000);
        assertThat(blocks.get(0).repetitions().get(0).tokenEvents()).isGreaterThan(2_900_000);
        assertThat(blocks.get(0).repetitions().get(0).value(Metric.HARNESS_HEAP_PEAK).orElseThrow()).isLessThan(64);
    }
}
