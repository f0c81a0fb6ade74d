package io.servebench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DatasetsTest {

    /** One token per whitespace-separated word: enough to test selection and filtering. */
    private static final ToIntFunction<String> WORDS = s -> s.isBlank() ? 0 : s.strip().split("\\s+").length;

    private static Dataset parse(String json) throws Exception {
        return ShareGptFile.read("test", "test.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), WORDS);
    }

    private static String words(int n) {
        return "w ".repeat(n).strip();
    }

    /**
     * A build asked to stop ends at its next count, however many prompts are left; once a set is built, a trace's
     * requests, counted as the load draws them, are not the stop's to cut (the load ends itself).
     */
    @Test
    void aBuildIsGivenUpAtTheCountAfterTheStopAndABuiltTraceIsNot(@TempDir Path dir) throws Exception {
        java.util.concurrent.atomic.AtomicInteger counts = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        ToIntFunction<String> counting = text -> {
            if (counts.incrementAndGet() == 10) {
                stop.set(true);
            }
            return WORDS.applyAsInt(text);
        };
        assertThatThrownBy(() -> Datasets.resolve("synthetic-sharegpt", counting, stop::get))
                .isInstanceOf(java.util.concurrent.CancellationException.class)
                .hasMessage("dataset synthetic-sharegpt: its building was stopped");
        assertThat(counts).as("counts after the stop").hasValue(10);

        Path trace = Files.writeString(dir.resolve("t.jsonl"), "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 2}\n"
                + "{\"timestamp\": 5, \"input_length\": 6, \"output_length\": 2}\n");
        stop.set(false);
        Dataset built = Datasets.resolve("trace:" + trace, WORDS, stop::get);
        stop.set(true);
        assertThat(built.requests(0, 2, 1)).extracting(RequestSpec::promptTokens).containsExactly(8, 6);
    }

    /**
     * A {@code synthetic:} set writes a prompt the first time a draw needs it: a load of 30 requests builds 30 prompts
     * of its 1,000 ({@code prepare}, before the load), not all of them, and each prompt is the same whichever were
     * built before it. A stop during {@code prepare} ends it.
     */
    @Test
    void aSyntheticSetBuildsThePromptsALoadDrawsAndTheSameWhateverTheOrder() {
        CallCountingCounter counting = new CallCountingCounter(WORDS);
        String spec = "synthetic:in=uniform(40,60),out=fixed(5),count=1000";
        Dataset d = Datasets.resolve(spec, counting, () -> false);
        assertThat(counting.calls()).as("counts before any draw").isZero();
        assertThat(d.meanPromptTokens()).isBetween(48.0, 52.0);

        d.prepare(7, 30, () -> false);
        int prepared = counting.calls();
        // each prompt is counted at least twice (written to length, then its count kept): 30 prompts, not 1,000
        assertThat(prepared).isBetween(60, 200);
        List<RequestSpec> drawn = d.requests(0, 30, 7);
        assertThat(counting.calls()).as("the load's draws build nothing more").isEqualTo(prepared);
        assertThat(drawn).allSatisfy(r -> assertThat(WORDS.applyAsInt(r.prompt())).isEqualTo(r.promptTokens())
                .isBetween(40, 60));

        // the same set built in another order: every prompt the same
        Dataset again = Datasets.resolve(spec, WORDS, () -> false);
        again.prepare(99, 1000, () -> false);
        assertThat(again.conversations()).isEqualTo(d.conversations());

        assertThatThrownBy(() -> Datasets.resolve(spec, WORDS, () -> false).prepare(7, 30, () -> true))
                .isInstanceOf(java.util.concurrent.CancellationException.class)
                .hasMessage("dataset " + spec + ": its building was stopped");
    }

    @Test
    void firstHumanTurnIsThePromptAndTheReplyLengthTheOutput() throws Exception {
        Dataset d = parse("[{\"id\":\"a\",\"conversations\":[{\"from\":\"human\",\"value\":\"" + words(5)
                + "\"},{\"from\":\"gpt\",\"value\":\"" + words(7) + "\"},{\"from\":\"human\",\"value\":\"more\"}]}]");
        assertThat(d.conversations()).containsExactly(new Conversation(words(5), 5, 7));
    }

    @Test
    void conversationsAreFilteredAsVllmBenchServeDoes() throws Exception {
        String json = "[" + String.join(",",
                conv(3, 10),        // prompt too short
                conv(10, 3),        // reply too short
                conv(1025, 10),     // prompt too long
                conv(1000, 1049),   // together too long
                conv(10, 10))       // kept
                + ",{\"conversations\":[{\"from\":\"human\",\"value\":\"only one turn\"}]}]";
        assertThat(parse(json).conversations()).hasSize(1);
    }

    private static String conv(int prompt, int reply) {
        return "{\"conversations\":[{\"from\":\"human\",\"value\":\"" + words(prompt) + "\"},{\"from\":\"gpt\",\"value\":\"" + words(reply) + "\"}]}";
    }

    /**
     * A published ShareGPT run rehearsed from its totals (GPUStack's Qwen3-14B page: 217,393 prompt and 201,648 generated
     * tokens over 1,000 requests): the set holds them to within rounding, each prompt exactly its length, and keeps
     * ShareGPT's long right tail: the median of a log-normal length is its mean times exp(-sigma^2 / 2), 0.73 with the
     * bundled set's prompt spread of 0.8.
     */
    @Test
    void aShareGptShapedSetHasThePublishedTotals() {
        Dataset d = Datasets.shareGptShaped(ShareGptShape.SYNTHETIC, 217.393, 201.648, 1000, WORDS);
        List<Conversation> c = d.conversations();
        assertHoldsTotals(c, 1000, 217_393, 201_648, 100);
        int[] prompts = c.stream().mapToInt(Conversation::promptTokens).sorted().toArray();
        assertThat(prompts[500] / 217.393).isCloseTo(Math.exp(-0.32), within(0.05));
        assertThat(prompts[999]).isGreaterThan(3 * 217);
    }

    /**
     * vLLM's benchmark client's ShareGPT sample, rehearsed at GPUStack's Qwen3-14B totals, keeps the spread of the
     * published run it comes from. The oracle is that run's own result file (simon-mo/vLLM-Benchmark, 500 requests,
     * DeepSeek-R1's tokenizer), read apart from this code: its prompts' median is 75.5 tokens of a mean of 205.95
     * (0.367 of it), and 35% of its replies are under 50 tokens of a mean of 215.3, so under 46.8 at a mean of 201.6.
     */
    @Test
    void theBenchmarkClientsShareGptSampleKeepsItsShortPromptsAndReplies() {
        List<Conversation> c = Datasets.shareGptShaped(ShareGptShape.BENCHMARK_CLIENT, 217.393, 201.648, 1000, WORDS)
                .conversations();
        assertHoldsTotals(c, 1000, 217_393, 201_648, 100);
        int[] prompts = c.stream().mapToInt(Conversation::promptTokens).sorted().toArray();
        assertThat(prompts[500] / 217.393).isCloseTo(0.367, within(0.05));
        assertThat(c.stream().filter(x -> x.outputTokens() < 46.8).count() / 1000.0).isCloseTo(0.35, within(0.04));
    }

    /**
     * The bundled sample is the published run's: 500 requests with the totals its result file prints; a line not of its
     * form is named.
     */
    @Test
    void theBenchmarkClientsSampleHoldsThePublishedRunsTotals() throws Exception {
        List<int[]> sample = BenchmarkShareGpt.read();
        assertThat(sample).hasSize(500);
        assertThat(sample.stream().mapToLong(l -> l[0]).sum()).isEqualTo(102_975);
        assertThat(sample.stream().mapToLong(l -> l[1]).sum()).isEqualTo(107_666);
        assertThatThrownBy(() -> BenchmarkShareGpt.read(new java.io.BufferedReader(new java.io.StringReader(
                "# source\n13,122\n27,x\n"))))
                .hasMessage("sharegpt-benchmark-sample.csv line 3: expected two positive whole numbers, prompt and output"
                        + " tokens, as 'prompt,output', got '27,x'");
    }

    /**
     * {@code requests} conversations whose prompt and output tokens add up to the published totals within {@code
     * rounding}, each prompt exactly the length it claims.
     */
    private static void assertHoldsTotals(List<Conversation> c, int requests, long promptTokens, long outputTokens,
                                          long rounding) {
        assertThat(c).hasSize(requests);
        assertThat(c.stream().mapToLong(Conversation::promptTokens).sum()).isCloseTo(promptTokens, within(rounding));
        assertThat(c.stream().mapToLong(Conversation::outputTokens).sum()).isCloseTo(outputTokens, within(rounding));
        assertThat(c).allSatisfy(x -> assertThat(WORDS.applyAsInt(x.prompt())).isEqualTo(x.promptTokens()));
    }

    /**
     * A published run of sglang.bench_serving's random prompts (SGLang's cookbook, Qwen3-235B on eight B200s: 249,831
     * prompt and 252,162 generated tokens over 500 requests, each length uniform from 1 to the asked 1,000) rehearsed
     * from its totals: the set holds them to within rounding and keeps the uniform spread, a quarter of the lengths
     * below a quarter of the range and none above it.
     */
    @Test
    void aSyntheticSetShapedToPublishedTotalsKeepsItsDistribution() {
        Dataset d = Datasets.syntheticShaped("synthetic:in=uniform(1,1000),out=uniform(1,1000),count=500", 499.662,
                504.324, WORDS);
        List<Conversation> c = d.conversations();
        assertHoldsTotals(c, 500, 249_831, 252_162, 500);
        int[] outputs = c.stream().mapToInt(Conversation::outputTokens).sorted().toArray();
        assertThat(outputs[125]).isBetween(200, 300);
        assertThat(outputs[375]).isBetween(700, 800);
        assertThat(outputs[499]).isBetween(950, 1100);
        assertThatThrownBy(() -> Datasets.syntheticShaped("sharegpt:x.json", 1, 1, WORDS))
                .hasMessageContaining("sharegpt:x.json").hasMessageContaining("expected synthetic:in=DIST,out=DIST");
    }

    @Test
    void badFilesAreNamedWithWhatWasExpected(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> parse("{\"conversations\":[]}")).hasMessageContaining("test.json")
                .hasMessageContaining("expected a JSON array");
        assertThatThrownBy(() -> parse("[{\"conversation\":[]}]")).hasMessageContaining("entry 0")
                .hasMessageContaining("\"conversations\" array");
        assertThatThrownBy(() -> parse("[{\"conversations\":[}]")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> parse("[" + conv(2, 2) + "]")).hasMessageContaining("no conversation");
        assertThatThrownBy(() -> Datasets.resolve("sharegpt:" + dir.resolve("missing.json"), WORDS))
                .hasMessageContaining("missing.json").hasMessageContaining("does not exist")
                .hasMessageContaining("-p dataset=synthetic-sharegpt");
        // a broken file: where, what, and the shape expected, without the JSON parser's internals
        assertThatThrownBy(() -> parse("[{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"}]},\n {\"conversations\": [ }"))
                .hasMessageContaining("dataset test.json is not valid JSON at line 2, column 22: unexpected close marker '}'")
                .hasMessageContaining("(for the array that starts at line 2, column 20)")
                .hasMessageContaining("expected a ShareGPT file").hasMessageNotContaining("Source:")
                .hasMessageNotContaining("StreamReadFeature");
        assertThatThrownBy(() -> Datasets.resolve("sharegpt", WORDS)).hasMessageContaining("dataset \"sharegpt\": no file after sharegpt:")
                .hasMessageContaining("sharegpt:PATH");
    }

    @Test
    void syntheticSetRoundTripsThroughTheShareGptReaderWithShareGptLikeLengths(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("synthetic.json");
        SyntheticShareGpt.write(file);
        Dataset fromFile = Datasets.resolve("sharegpt:" + file, WORDS);
        Dataset inMemory = Datasets.resolve(Datasets.SYNTHETIC_SHAREGPT, WORDS);
        assertThat(fromFile.conversations()).isEqualTo(inMemory.conversations());
        assertThat(inMemory.conversations()).hasSize(SyntheticShareGpt.SIZE);
        // The reference workload averages about 342 prompt and 281 reply tokens.
        assertThat(inMemory.meanPromptTokens()).isBetween(250.0, 420.0);
        assertThat(inMemory.meanOutputTokens()).isBetween(200.0, 340.0);
        // A long right tail, as ShareGPT has: the mean is well above the median.
        List<Integer> prompts = inMemory.conversations().stream().map(Conversation::promptTokens).sorted().toList();
        assertThat(inMemory.meanPromptTokens()).isGreaterThan(prompts.get(prompts.size() / 2) * 1.1);
        assertThat(Files.size(file)).isPositive();
    }

    @Test
    void requestsAreSeededWarmupFirstAndAskForExactReplyLengths() {
        Dataset d = Datasets.resolve(Datasets.SYNTHETIC_SHAREGPT, WORDS);
        List<RequestSpec> a = d.requests(2, 5, 7);
        assertThat(a).hasSize(7);
        assertThat(a).extracting(RequestSpec::warmup).containsExactly(true, true, false, false, false, false, false);
        assertThat(a).allSatisfy(r -> assertThat(r.exactOutput()).isTrue());
        assertThat(a).extracting(RequestSpec::index).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(d.requests(2, 5, 7)).isEqualTo(a);
        assertThat(d.requests(2, 5, 8)).isNotEqualTo(a);
        // More requests than conversations cycle through the set.
        assertThat(new Dataset("two", d.conversations().subList(0, 2)).requests(0, 5, 1)).hasSize(5);
    }
}
