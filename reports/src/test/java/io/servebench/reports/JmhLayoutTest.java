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
    void everyEntryOfAClassHasTheSameParamNamesAndValuesFreeOfColonsEqualsAndSpaces() throws Exception {
        Map<String, Set<List<String>>> namesByClass = new LinkedHashMap<>();
        for (JsonNode e : json(SeedStudy.load())) {
            String benchmark = e.get("benchmark").asText();
            List<String> names = new ArrayList<>();
            e.get("params").fieldNames().forEachRemaining(names::add);
            namesByClass.computeIfAbsent(benchmark.substring(0, benchmark.lastIndexOf('.')), k -> new java.util.HashSet<>())
                    .add(names);
            e.get("params").forEach(v -> assertThat(v.asText()).doesNotContain(":").doesNotContain("=").doesNotContain(" "));
        }
        // what varies: the engine in the tuning study (vLLM against SGLang), the rate in the validation study
        assertThat(namesByClass).containsEntry(SeedStudy.TUNING, Set.of(List.of("engine")))
                .containsEntry(SeedStudy.VALIDATION, Set.of(List.of("rate")));
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
