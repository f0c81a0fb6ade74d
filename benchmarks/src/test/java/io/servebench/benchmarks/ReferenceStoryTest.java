package io.servebench.benchmarks;

import io.servebench.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole reference study (16 trials of 1,000 requests, two repetitions each: the fewest that measure run-to-run
 * noise, without which no verdict is given) in virtual time tells the reference's story in the summary a user reads:
 * vLLM chosen over SGLang by at least 2x, no significant difference from prefix caching, max batched tokens or max
 * sequences, speculative decoding 1.05x-1.20x faster at 8 req/s, the recommended configuration faster at every rate,
 * and latency rising with the rate.
 */
class ReferenceStoryTest {

    /** A row of the summary's optimization table: group, optimized side, verdict. */
    private static final Pattern ROW = Pattern.compile(
            "^\\| (\\w+) · rate (\\d+) req/s \\| ([\\w-]+) \\| (\\S+) = ([\\d.]+) s \\| (\\S+) = ([\\d.]+) s \\| (.*) \\|$");

    private record Row(String study, int rate, String group, String optimized, double optimizedSeconds,
                       double baselineSeconds, String verdict) {
        double speedUp() {
            return baselineSeconds / optimizedSeconds;
        }
    }

    @Test
    void theReferenceStudyInVirtualTimeTellsTheReferencesStory(@TempDir Path dir) throws IOException {
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"--simulate=virtual", "-r", "2", "-p", "dataset=synthetic-sharegpt", "-o", dir.toString(), "qwen"}, new PrintWriter(out, true), new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();

        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("summary.md"))) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                Row row = new Row(m.group(1), Integer.parseInt(m.group(2)), m.group(3), m.group(4),
                        Double.parseDouble(m.group(5)), Double.parseDouble(m.group(7)), m.group(8));
                rows.put(row.study() + "/" + row.rate() + "/" + row.optimized(), row);
            }
        }
        assertThat(rows).as("the optimization table of summary.md").hasSize(13);

        Row sglang = rows.get("LatencyTuning/8/sglang");
        assertThat(sglang.verdict()).contains("slower").contains("significant");
        assertThat(1 / sglang.speedUp()).as("SGLang / vLLM mean latency").isGreaterThanOrEqualTo(2.0);

        for (String same : List.of("prefixCaching", "maxNumBatchedTokens[16384]", "maxNumBatchedTokens[32768]",
                "maxNumSeqs[128]", "maxNumSeqs[256]")) {
            assertThat(rows.get("LatencyTuning/8/" + same).verdict()).as(same).startsWith("no significant difference");
        }

        Row mtp = rows.get("LatencyTuning/8/mtp");
        assertThat(mtp.verdict()).contains("faster").contains("significant");
        assertThat(mtp.speedUp()).as("MTP speed-up at 8 req/s").isBetween(1.05, 1.20);

        double previous = 0;
        for (int rate : new int[] {1, 4, 8, 16}) {
            Row r = rows.get("RateValidation/" + rate + "/recommended");
            assertThat(r.verdict()).as("recommended at " + rate + " req/s").contains("faster").doesNotContain("no significant");
            assertThat(r.baselineSeconds()).as("baseline latency rises with the rate").isGreaterThan(previous);
            previous = r.baselineSeconds();
        }
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("ServeBench simulated engine in virtual time");
    }
}
