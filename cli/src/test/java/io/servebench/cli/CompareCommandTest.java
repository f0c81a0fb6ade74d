package io.servebench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CompareCommandTest {

    /** A JMH JSON file with one sample-mode entry whose 3 forks scored {@code forks} s/op. */
    private static Path results(Path dir, String name, String requests, double... forks) throws Exception {
        String json = """
                [{"jmhVersion":"1.37","benchmark":"demo.Study.baseline","mode":"sample","forks":%d,
                  "params":{"rate":"8","requests":"%s"},
                  "primaryMetric":{"score":%s,"scoreError":"NaN","scoreConfidence":["NaN","NaN"],"scorePercentiles":{},
                                   "scoreUnit":"s/op","rawData":[%s]},
                  "secondaryMetrics":{}}]
                """.formatted(forks.length, requests, mean(forks), rawData(forks));
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run compare(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] full = new String[args.length + 1];
        full[0] = "compare";
        System.arraycopy(args, 0, full, 1, args.length);
        int code = Main.execute(full, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** JMH's rawData of one value a fork: {@code [2.6],[2.62]}. */
    private static String rawData(double... forks) {
        return java.util.Arrays.stream(forks).mapToObj(f -> "[" + f + "]")
                .collect(java.util.stream.Collectors.joining(","));
    }

    private static double mean(double... forks) {
        return java.util.Arrays.stream(forks).average().orElseThrow();
    }

    /** A ServeBench entry of an ad-hoc run at 4 req/s whose engine ran with {@code flags}, its forks' mean latencies in s. */
    private static Path adHoc(Path dir, String name, String flags, double... forks) throws Exception {
        return entry(dir, name, flags, null, forks);
    }

    /**
     * {@link #adHoc}'s entry, its server having run where {@code environment} (a JSON object's members) says; none said
     * when {@code null}.
     */
    private static Path entry(Path dir, String name, String flags, String environment, double... forks) throws Exception {
        String json = """
                [{"jmhVersion":"1.37","benchmark":"AdHoc.baseline","mode":"sample","forks":%d,
                  "primaryMetric":{"score":%s,"scoreError":"NaN","scoreConfidence":["NaN","NaN"],"scorePercentiles":{},
                                   "scoreUnit":"s/op","rawData":[%s]},
                  "secondaryMetrics":{},
                  "servebench":{"benchmark":"AdHoc.baseline","params":{"engine":"vllm","rate":"4","flags":"%s"}%s}}]
                """.formatted(forks.length, mean(forks), rawData(forks), flags,
                environment == null ? "" : ",\"environment\":{" + environment + "}");
        return Files.writeString(dir.resolve(name), json);
    }

    @Test
    void entriesWhoseServersRanElsewhereAreSaidToHave(@TempDir Path dir) throws Exception {
        String h100 = entry(dir, "h100.json", "", "\"engine\":\"vllm\",\"engine version\":\"0.17.1\",\"GPUs\":\"NVIDIA H100 80GB"
                + " HBM3\"", 2.60, 2.62, 2.64).toString();
        String a100 = entry(dir, "a100.json", "", "\"engine\":\"vllm\",\"engine version\":\"0.17.1\",\"GPUs\":\"NVIDIA A100-SXM4-80GB\"",
                3.00, 3.04, 3.08).toString();
        Run r = compare(h100, a100);
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("  (ran elsewhere: GPUs: A `NVIDIA H100 80GB HBM3`, B `NVIDIA A100-SXM4-80GB`)")
                .contains("1 of the 1 entries ran elsewhere in A than in B (named above): their differences are the"
                        + " engine's or the GPUs' as much as the change's");
        // the same machine: nothing said; a file that says nothing of its environment (JMH's, or of before): nothing
        String again = entry(dir, "again.json", "", "\"engine\":\"vllm\",\"engine version\":\"0.17.1\",\"GPUs\":\"NVIDIA H100"
                + " 80GB HBM3\"", 2.61, 2.63, 2.65).toString();
        assertThat(compare(h100, again).out()).doesNotContain("ran elsewhere");
        assertThat(compare(h100, adHoc(dir, "old.json", "", 2.6, 2.6, 2.6).toString()).out()).doesNotContain("ran elsewhere");
    }

    @Test
    void twoConfigurationsOfOneLoadAreSetSideBySideWhenTheParamThatPartsThemIsLeftOut(@TempDir Path dir)
            throws Exception {
        String before = adHoc(dir, "before.json", "", 2.60, 2.62, 2.64).toString();
        String after = adHoc(dir, "after.json", "--max-num-seqs=8", 3.00, 3.04, 3.08).toString();
        Run refused = compare(before, after);
        assertThat(refused.code()).isEqualTo(Main.BAD_INPUT);
        assertThat(refused.err()).contains("nothing to compare. The nearest entries of one benchmark differ in flags: A"
                + " (empty), B `--max-num-seqs=8`; to set them side by side anyway: --ignore-param flags");

        Run sideBySide = compare(before, after, "--ignore-param", "flags", "--fail-on", "latency:5%");
        assertThat(sideBySide.code()).as(sideBySide.out() + sideBySide.err()).isEqualTo(Main.REGRESSION);
        assertThat(sideBySide.out()).contains("AdHoc.baseline {engine=vllm, rate=4}")
                .contains("(flags: A (empty), B `--max-num-seqs=8`)").contains("worse [");
    }

    @Test
    void aRegressionBeyondTheThresholdExitsThree(@TempDir Path dir) throws Exception {
        String a = results(dir, "a.json", "1000", 2.60, 2.62, 2.64).toString();
        String b = results(dir, "b.json", "16", 2.78, 2.80, 2.82).toString();
        Run failing = compare(a, b, "--fail-on", "latency:5%");
        assertThat(failing.code()).as(failing.out() + failing.err()).isEqualTo(Main.REGRESSION);
        assertThat(failing.out()).contains("demo.Study.baseline {rate=8}").contains("6.87%").contains("worse [")
                .contains("REGRESSION: demo.Study.baseline {rate=8}: latency changed +6.87% (threshold 5%)");

        Run passing = compare(a, b, "--fail-on", "latency:10%");
        assertThat(passing.code()).isZero();
        assertThat(passing.out()).contains("No threshold exceeded.");

        // a gate on a metric neither file holds (misspelt) would never be checked and always pass: refused
        Run misspelt = compare(a, b, "--fail-on", "latncy:5%");
        assertThat(misspelt.code()).isEqualTo(Main.BAD_INPUT);
        assertThat(misspelt.err()).contains("--fail-on latncy: no entry of " + a + " or " + b + " has latncy; expected a"
                + " metric the files hold: latency");
        assertThat(compare(a, b, "--metric", "latency,ttft.p999").err()).contains("--metric ttft.p999: no entry of");

        // held by one side only (a run that left ITL out): not checked, and the last line says so
        String withItl = Files.readString(Path.of(a)).replace("\"secondaryMetrics\":{}", "\"secondaryMetrics\":{\"itl.p99\":"
                + "{\"score\":9.1,\"scoreError\":\"NaN\",\"scoreConfidence\":[\"NaN\",\"NaN\"],\"scorePercentiles\":{},"
                + "\"scoreUnit\":\"ms\",\"rawData\":[[9.0],[9.1],[9.2]]}}");
        Path aWithItl = Files.writeString(dir.resolve("a-itl.json"), withItl);
        Run oneSided = compare(aWithItl.toString(), b, "--fail-on", "itl.p99:5%");
        assertThat(oneSided.code()).as(oneSided.err()).isZero();
        assertThat(oneSided.out()).contains("itl.p99: not in both files, not checked")
                .contains("No threshold exceeded of those checked; 1 could not be checked, as a side lacked the metric");
    }

    @Test
    void oneRepetitionAgainstThreeIsUndecidedAndNoRegressionUnlessWithinRunIsAccepted(@TempDir Path dir) throws Exception {
        // the same configuration run with -r 1 and -r 3: the repetitions' spread is the only difference
        String one = results(dir, "one.json", "1000", 3.936).toString();
        String three = results(dir, "three.json", "1000", 3.936, 5.82, 4.87).toString();
        Run run = compare(one, three, "--fail-on", "latency:5%");
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        // files of fork means alone: nothing to bootstrap either, so not even a within-run interval
        assertThat(run.out()).contains("not tested").contains("Run-to-run noise was not measured for 1 of the rows")
                .contains("No threshold exceeded.");
        // asked to, the change alone decides, and the spread reads as a regression
        Run accepted = compare(one, three, "--fail-on", "latency:5%", "--accept-within-run");
        assertThat(accepted.code()).as(accepted.out()).isEqualTo(Main.REGRESSION);
    }

    @Test
    void noiseIsNoRegression(@TempDir Path dir) throws Exception {
        String a = results(dir, "a.json", "1000", 2.0, 2.5, 3.0).toString();
        String b = results(dir, "b.json", "1000", 2.2, 2.7, 3.2).toString();
        Run run = compare(a, b, "--fail-on", "latency:5%");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("no significant difference [");
    }

    @Test
    void badInputExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        String a = results(dir, "a.json", "1000", 2.6, 2.6, 2.6).toString();
        Files.writeString(dir.resolve("notes.md"), "# not json");
        Run missing = compare(dir.resolve("missing.json").toString(), a);
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("error: ").contains("missing.json: no such file").hasLineCount(1);
        // a run folder stands for its results.json; one whose run has not ended has none yet
        Path runFolder = Files.createDirectories(dir.resolve("run"));
        Files.copy(Path.of(a), runFolder.resolve("results.json"));
        assertThat(compare(runFolder.toString(), a).code()).isZero();
        Run unfinished = compare(Files.createDirectories(dir.resolve("running")).toString(), a);
        assertThat(unfinished.code()).isEqualTo(2);
        assertThat(unfinished.err()).contains("running/results.json: no such file; expected a results.json written by"
                + " ServeBench or JMH, as a run folder holds once its run has ended").hasLineCount(1);
        Run notJson = compare(dir.resolve("notes.md").toString(), a);
        assertThat(notJson.code()).isEqualTo(2);
        assertThat(notJson.err()).contains("notes.md cannot be compared: not JSON (line 1, column 1): Unexpected"
                + " character ('#'").hasLineCount(1);
        assertThat(notJson.err()).doesNotContain("REDACTED", "StreamReadFeature");
        Files.writeString(dir.resolve("empty.json"), "");
        assertThat(compare(dir.resolve("empty.json").toString(), a).err()).contains("empty.json cannot be compared:"
                + " expected a JSON array of JMH results at the top level, found nothing (an empty file); expected a"
                + " results.json written by ServeBench or JMH").hasLineCount(1);
        Files.writeString(dir.resolve("cut.json"), "[{\"benchmark\": \"x\"");
        assertThat(compare(dir.resolve("cut.json").toString(), a).err()).contains("cut.json cannot be compared: not JSON"
                + " (line 1, column 19): Unexpected end-of-input: expected close marker for Object; expected")
                .doesNotContain("REDACTED");
        Files.writeString(dir.resolve("object.json"), "{\"benchmark\": \"x\"}");
        assertThat(compare(dir.resolve("object.json").toString(), a).err()).contains("found an object");
        Run badThreshold = compare(a, a, "--fail-on", "latency=5");
        assertThat(badThreshold.code()).isEqualTo(2);
        assertThat(badThreshold.err()).contains("--fail-on latency=5: expected METRIC:N% such as latency:5%");
    }
}
