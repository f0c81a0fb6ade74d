package io.servebench.benchmarks;

import io.servebench.cli.Main;
import io.servebench.results.BlockResult;
import io.servebench.results.journal.RunJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference study carried out by the tuner, in virtual time: it must reach the reference's conclusions from its own
 * measurements, and a run that died part-way must resume to the same result without measuring again what it had.
 */
class TunedReferenceTest {

    private static String run(Path dir, String... args) {
        StringWriter out = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
        return out.toString();
    }

    @Test
    void theTunerReachesTheReferencesConclusionsAndResumesWhereItStopped(@TempDir Path tmp) throws IOException {
        Path whole = tmp.resolve("whole");
        String out = run(whole, "--simulate=virtual", "-p", "dataset=synthetic-sharegpt", "-o", whole.toString(),
                "TunedReference");
        // speculative decoding by MTP, as the reference recommended it (its flags of performance mode and language-only
        // on top or not: the twin finds the first 1.7% faster, decided on two repetitions, and the second no faster)
        assertThat(out).contains("step 2 of 7: option group prefix-caching").containsPattern("Recommended: mtp\\w*\\.");
        String recommended = out.replaceAll("(?s).*Recommended: (mtp\\w*)\\..*", "$1");
        String summary = Files.readString(whole.resolve("summary.md"));
        assertThat(summary).contains("## How the tuner chose")
                .contains("a close call, a difference of 2% or more that is not yet significant, gets more repetitions,"
                        + " up to 3 a side.")
                .contains("### engine-selection (base: vllm) → vllm")
                .contains("### prefix-caching (base: vllm) → vllm")
                .contains("### max-num-batched-tokens (base: vllm) → vllm")
                .contains("### max-num-seqs (base: vllm) → vllm")
                .containsPattern("### speculative-decoding \\(base: vllm\\) → mtp\\w*")
                // decided on two repetitions a side: one measures no run-to-run noise
                .containsPattern("\\| sglang \\| [\\d.]+ \\| (2|3|4)\\.\\d+ \\| [^|]+ \\| 2 \\| significantly worse \\|")
                // prefix caching changes nothing the twin models: not repeated, and not called a finding
                .containsPattern("\\| prefixCaching \\| [\\d.]+ \\| [\\d.]+ \\| [^|]+ \\| 1 \\| no difference worth another"
                        + " repetition: within the close-call margin after 1 repetition \\(within-run noise only, not a finding\\) \\|")
                .contains("Recommendation: " + recommended + ".")
                .contains("TunedReference recommends **" + recommended + "**");
        // validated at every rate, and faster at each (the cross-rate table's verdicts)
        for (String rate : List.of("1", "4", "8", "16")) {
            assertThat(summary).containsPattern("(?m)^\\| " + rate + " \\| [\\d.]+ \\| [\\d.]+ \\| 1\\.\\d+x faster");
        }

        // A run that stopped after its twelfth trial, its steps replayed from the journal: the journal as it was then
        Path cut = tmp.resolve("cut");
        Files.createDirectories(cut);
        List<String> lines = Files.readAllLines(whole.resolve(RunJournal.FILE_NAME));
        java.util.Set<String> trials = new java.util.HashSet<>();
        java.util.regex.Pattern trialId = java.util.regex.Pattern.compile("\"trialId\":\"([^\"]+)\"");
        StringBuilder kept = new StringBuilder();
        for (String line : lines) {
            // the lines of the first twelve trials: a thirteenth's first line is where the run stopped
            java.util.regex.Matcher m = trialId.matcher(line);
            if (m.find() && !trials.contains(m.group(1)) && trials.size() == 12) {
                break;
            }
            if (m.find(0)) {
                trials.add(m.group(1));
            }
            kept.append(line).append('\n');
        }
        Files.writeString(cut.resolve(RunJournal.FILE_NAME), kept);
        String resumed = run(cut, "--resume", cut.toString());
        assertThat(resumed).contains("Resuming: 12 trials finished before").contains("Recommended: " + recommended + ".")
                .doesNotContain("[1/").doesNotContain("[12/").contains("[13/");
        assertThat(requests(cut)).isEqualTo(requests(whole));
        assertThat(Files.readString(cut.resolve("summary.md"))).contains("Recommendation: " + recommended + ".");
    }

    /** Requests measured per block, by benchmark and rate, from the reports' JMH file. */
    private static Map<String, Long> requests(Path dir) throws IOException {
        return RunJournal.read(dir).stream().collect(Collectors.toMap(b -> b.benchmark() + "@" + b.params().get("rate"),
                TunedReferenceTest::successful, (a, b) -> b, java.util.TreeMap::new));
    }

    private static long successful(BlockResult b) {
        return b.repetitions().stream().mapToLong(r -> Math.round(r.scalars().get("successful_requests"))).sum();
    }
}
