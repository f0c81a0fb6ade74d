package io.servebench.cli;

import io.servebench.measure.Metric;
import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A disk that fills up while a trial streams its request records: the trial stops sending, keeps what its finished
 * requests measured as a partial trial with the reason, and the run goes on to its next trial (which finds the disk
 * full at once) and writes its reports. The records go to a 64 KB tmpfs mounted on the run's {@code requests/}
 * (needs root, as {@code .ci/run} has; skipped elsewhere, saying why).
 */
class DiskFullTest {

    @Test
    void aTrialWhoseRecordsFillTheDiskIsKeptPartialAndTheRunGoesOn(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Path requests = Files.createDirectories(out.resolve("requests"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", requests.toString())
                .redirectErrorStream(true).start();
        boolean mounted = mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0;
        String why = new String(mount.getInputStream().readAllBytes()).trim();
        Assumptions.assumeTrue(mounted, () -> "no small file system to fill: mount -t tmpfs failed (" + why
                + "); it needs root");
        try {
            StringWriter output = new StringWriter();
            int code = Main.execute(new String[] {"SimStudy.baseline", "--simulate=virtual", "-p", "rate=4,8", "-p",
                "requests=2000", "-p", "warmup=0", "-p", "dataset=synthetic:in=fixed(50),out=fixed(100)", "-o",
                out.toString()}, new PrintWriter(output, true), new PrintWriter(output, true));
            // failed trials: exit code 1, the reports written
            assertThat(code).as(output.toString()).isEqualTo(1);
            assertThat(out.resolve("summary.md")).exists();
            List<BlockResult> blocks = RunJournal.read(out);
            assertThat(blocks).as(output.toString()).hasSize(2).allSatisfy(b -> assertThat(b.failure())
                    .startsWith("repetition 1 failed: writing ").contains("No space left on device"));
            // the first trial measured its requests until the disk was full, and stopped sending then: kept apart as a
            // failed repetition, which counts in none of the block's figures
            assertThat(blocks.get(0).repetitions()).isEmpty();
            IncompleteRepetition partial = blocks.get(0).incomplete().get(0);
            assertThat(partial.kind()).isEqualTo(IncompleteRepetition.Kind.FAILED);
            double first = partial.measured().value(Metric.SUCCESSFUL_REQUESTS).orElseThrow();
            assertThat(first).isPositive().isLessThan(2000);
            assertThat(partial.measured().notes()).anySatisfy(n -> assertThat(n).startsWith("stopped at")
                    .contains("No space left on device"));
            assertThat(Files.readString(out.resolve("summary.md"))).contains("No space left on device");
        } finally {
            Process umount = new ProcessBuilder("umount", requests.toString()).redirectErrorStream(true).start();
            assertThat(umount.waitFor(10, TimeUnit.SECONDS) && umount.exitValue() == 0)
                    .as(new String(umount.getInputStream().readAllBytes())).isTrue();
        }
    }
}
