package io.servebench.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.results.BlockResult;
import io.servebench.results.RunResult;
import io.servebench.results.jmh.JmhJsonWriter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What JMH visualizers and CI trackers rely on, asserted on the reference study's 18 blocks: secondary metrics named
 * as JMH names secondary results, the same metrics and the same param names in every entry of a class, labels they
 * can split, and names that do not change when flags are written in another order.
 */
class JmhLayoutTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(RunResult run) throws Exception {
        return MAPPER.readTree(new JmhJsonWriter().toJson(run));
    }

    @Test
    void everySecondaryMetricIsNamedAsJmhNamesSecondaryResultsAndEveryEntryHasTheSameSet() throws Exception {
        JsonNode entries = json(SeedStudy.load());
        assertThat(entries).hasSize(18);
        Set<String> first = names(entries.get(0).get("secondaryMetrics"));
        assertThat(first).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("·"));
        entries.forEach(e -> assertThat(names(e.get("secondaryMetrics"))).isEqualTo(first));
    }

    @Test
    void everyEntryOfAClassHasTheSameParamNamesWithoutPlaceholdersAndValuesFreeOfColonsEqualsAndSpaces() throws Exception {
        Map<String, Set<List<String>>> namesByClass = new LinkedHashMap<>();
        Set<String> series = new java.util.HashSet<>();
        for (JsonNode e : json(SeedStudy.load())) {
            String benchmark = e.get("benchmark").asText();
            List<String> names = new ArrayList<>();
            JsonNode params = e.path("params");
            params.fieldNames().forEachRemaining(names::add);
            namesByClass.computeIfAbsent(benchmark.substring(0, benchmark.lastIndexOf('.')), k -> new java.util.HashSet<>())
                    .add(names);
            params.forEach(v -> assertThat(v.asText()).doesNotContain(":").doesNotContain("=").doesNotContain(" ")
                    .isNotEqualTo("-"));
            assertThat(series.add(benchmark + params)).as("one series per entry: " + benchmark + params).isTrue();
        }
        // what varies within a variant: nothing in the tuning study, whose engine is its variant's; the rate in the
        // validation study
        assertThat(namesByClass).containsEntry(SeedStudy.TUNING, Set.of(List.of()))
                .containsEntry(SeedStudy.VALIDATION, Set.of(List.of("rate")));
    }

    @Test
    void withParamsInTheNameEveryEntryHasANameOfItsOwnAndNoParams() throws Exception {
        JsonNode entries = MAPPER.readTree(new JmhJsonWriter(null, true).toJson(SeedStudy.load()));
        Set<String> names = new java.util.HashSet<>();
        for (JsonNode e : entries) {
            assertThat(e.has("params")).isFalse();
            assertThat(names.add(e.get("benchmark").asText())).as(e.get("benchmark").asText()).isTrue();
        }
        assertThat(names).hasSize(18).contains(SeedStudy.VALIDATION + ".baseline[rate=16]", SeedStudy.TUNING + ".sglang");
    }

    @Test
    void flagsWrittenInAnotherOrderGiveByteIdenticalNames() throws Exception {
        RunResult run = SeedStudy.load();
        List<BlockResult> reordered = new ArrayList<>();
        for (BlockResult b : run.blocks()) {
            Map<String, String> params = new LinkedHashMap<>(b.params());
            List<String> flags = new ArrayList<>(List.of(params.get(BlockResult.FLAGS).split(" (?=--)")));
            Collections.reverse(flags);
            params.put(BlockResult.FLAGS, String.join(" ", flags));
            reordered.add(new BlockResult(b.benchmark(), b.className(), b.variant(), b.group(), b.baseline(), params,
                    b.trialId(), b.serverId(), b.repetitions(), b.failure(), b.recommended(), b.serveCommand()));
        }
        JsonNode before = json(run);
        JsonNode after = json(new RunResult(run.startTime(), run.servebenchVersion(), run.commandLine(), run.engines(),
                run.quick(), reordered, run.servers()));
        for (int i = 0; i < before.size(); i++) {
            assertThat(after.get(i).get("benchmark").toString() + after.get(i).get("params"))
                    .isEqualTo(before.get(i).get("benchmark").toString() + before.get(i).get("params"));
        }
    }

    @Test
    void theReportsSayWhichMetricsTheJsonLeavesOutAndWhy() throws Exception {
        RunResult run = SeedStudy.load();
        assertThat(JmhJsonWriter.omittedSecondaryMetrics(run)).isEmpty();
        BlockResult withServerMetric = run.blocks().get(0);
        io.servebench.results.RepetitionResult rep = withServerMetric.repetitions().get(0).withServerMetrics(
                Map.of(io.servebench.results.ServerMetric.PREFIX_CACHE_HIT_RATE.id(), 0.5));
        List<BlockResult> blocks = new ArrayList<>(run.blocks());
        blocks.set(0, new BlockResult(withServerMetric.benchmark(), withServerMetric.className(), withServerMetric.variant(),
                withServerMetric.group(), withServerMetric.baseline(), withServerMetric.params(), withServerMetric.trialId(),
                withServerMetric.serverId(), List.of(rep), null, false, null));
        RunResult mixed = new RunResult(run.startTime(), "", "", io.servebench.results.EngineMode.DECLARED, false, blocks);
        assertThat(JmhJsonWriter.omittedSecondaryMetrics(mixed)).containsExactly(Map.entry("server.prefix_cache_hit_rate", 1));
        assertThat(new SummaryMarkdownWriter(ReportLanguage.EN).render(mixed)).contains("- results.json leaves out the"
                + " metrics that not every entry has, so that every entry has the same set: server.prefix_cache_hit_rate"
                + " (1 of 18 entries)");
    }

    private static Set<String> names(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
