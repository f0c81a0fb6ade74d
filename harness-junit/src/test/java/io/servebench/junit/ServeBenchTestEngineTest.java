package io.servebench.junit;

import io.servebench.junit.fixtures.EngineThatCannotStart;
import io.servebench.junit.fixtures.MissedSlo;
import io.servebench.junit.fixtures.TwoVariants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

/** The engine end to end through JUnit's test kit: what it discovers, what it reports, how a trial fails. */
class ServeBenchTestEngineTest {

    private static EngineTestKit.Builder kit(Path dir) {
        return EngineTestKit.engine(ServeBenchTestEngine.ID).configurationParameter("servebench.outputDir", dir.toString())
                .configurationParameter("servebench.progress", "false");
    }

    /** Every descriptor below the engine, depth first, as "TYPE display name". */
    private static List<String> names(EngineDiscoveryResults discovery) {
        List<String> names = new java.util.ArrayList<>();
        walk(discovery.getEngineDescriptor(), names);
        return names;
    }

    private static void walk(TestDescriptor parent, List<String> names) {
        for (TestDescriptor child : parent.getChildren()) {
            names.add(child.getType() + " " + child.getDisplayName());
            walk(child, names);
        }
    }

    @Test
    void aStudyClassIsAContainerOfServerConfigurationsWhoseTrialsAreTests(@TempDir Path dir) {
        EngineDiscoveryResults discovery = kit(dir).selectors(selectClass(TwoVariants.class)).discover();
        assertThat(names(discovery)).containsExactly("CONTAINER TwoVariants",
                "CONTAINER sim Qwen/Qwen3.5-9B --max-model-len=4096", "TEST baseline · constant 8 req/s",
                "CONTAINER sim Qwen/Qwen3.5-9B --max-model-len=4096"
                        + " --speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
                "TEST mtp · constant 8 req/s");
        TestDescriptor trial = discovery.getEngineDescriptor().getDescendants().stream()
                .filter(d -> d.getDisplayName().startsWith("mtp")).findFirst().orElseThrow();
        assertThat(trial.getSource()).hasValueSatisfying(s -> assertThat(s.toString()).contains("methodName = 'mtp'"));
        assertThat(trial.getUniqueId().toString()).startsWith("[engine:servebench]/[study:" + TwoVariants.class.getName()
                + "]/[server:sim-").contains("/[trial:mtp@sim-").endsWith("-constant-8]");
    }

    @Test
    void aVariantMethodSelectsItsTrialsOnlyAndAUniqueIdFindsThemAgain(@TempDir Path dir) {
        EngineDiscoveryResults byMethod = kit(dir).selectors(selectMethod(TwoVariants.class, "mtp")).discover();
        assertThat(names(byMethod)).hasSize(3).last().isEqualTo("TEST mtp · constant 8 req/s");
        String id = byMethod.getEngineDescriptor().getDescendants().stream()
                .filter(d -> d.getType() == TestDescriptor.Type.TEST).findFirst().orElseThrow().getUniqueId().toString();
        assertThat(names(kit(dir).selectors(selectUniqueId(id)).discover())).isEqualTo(names(byMethod));
    }

    @Test
    void servebenchSimulateTakesTheCommandLinesModesVirtualTimeIncluded(@TempDir Path dir) {
        // the JUnit engine knew true, process and false, not --simulate=virtual's mode
        EngineExecutionResults results = kit(dir).configurationParameter("servebench.simulate", "virtual")
                .selectors(selectClass(TwoVariants.class)).execute();
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        assertThat(dir.resolve("TwoVariants").resolve("summary.md")).content().contains("virtual time");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> kit(dir).configurationParameter("servebench.simulate",
                "virtually").selectors(selectClass(TwoVariants.class)).discover())
                .hasStackTraceContaining("servebench.simulate=virtually: \"virtually\" is no way to simulate; expected in-process,"
                        + " process, virtual or off (true stands for in-process, false for off)");
    }

    @Test
    void aParamIsSplitAsTheCommandLinesMinusPIs(@TempDir Path dir) {
        // a dataset's own options and a JSON body keep their commas, as -p keeps them (they were split here before);
        // a second dataset kind after a comma is a second dataset, so each variant runs twice
        EngineDiscoveryResults one = kit(dir).configurationParameter("servebench.param.dataset", "synthetic:in=8,out=8")
                .configurationParameter("servebench.param.extraBody", "{\"temperature\": 0, \"seed\": 1}")
                .selectors(selectClass(TwoVariants.class)).discover();
        assertThat(one.getDiscoveryIssues()).isEmpty();
        assertThat(names(one)).filteredOn(n -> n.startsWith("TEST")).hasSize(2);
        EngineDiscoveryResults two = kit(dir).configurationParameter("servebench.param.dataset",
                "synthetic:in=8,out=8,synthetic-sharegpt").selectors(selectClass(TwoVariants.class)).discover();
        assertThat(two.getDiscoveryIssues()).isEmpty();
        // each its own test, named by what tells it apart
        assertThat(names(two)).filteredOn(n -> n.startsWith("TEST")).containsExactly(
                "TEST baseline · constant 8 req/s · dataset=synthetic:in=8,out=8",
                "TEST baseline · constant 8 req/s · dataset=synthetic-sharegpt",
                "TEST mtp · constant 8 req/s · dataset=synthetic:in=8,out=8",
                "TEST mtp · constant 8 req/s · dataset=synthetic-sharegpt");
    }

    @Test
    void aTrialsUniqueIdRunsThatTrialAloneOfItsVariantsTrials(@TempDir Path dir) throws Exception {
        // two rates: the mtp variant has two trials on one server, and re-running one test must run that one only
        EngineDiscoveryResults all = kit(dir).configurationParameter("servebench.param.rate", "4,8")
                .selectors(selectClass(TwoVariants.class)).discover();
        assertThat(names(all)).contains("TEST mtp · constant 4 req/s", "TEST mtp · constant 8 req/s");
        String id = all.getEngineDescriptor().getDescendants().stream()
                .filter(d -> d.getDisplayName().equals("mtp · constant 8 req/s")).findFirst().orElseThrow()
                .getUniqueId().toString();

        EngineDiscoveryResults again = kit(dir).configurationParameter("servebench.param.rate", "4,8")
                .selectors(selectUniqueId(id)).discover();
        assertThat(names(again)).hasSize(3).last().isEqualTo("TEST mtp · constant 8 req/s");
        assertThat(again.getEngineDescriptor().getDescendants()).filteredOn(d -> d.getType() == TestDescriptor.Type.TEST)
                .extracting(d -> d.getUniqueId().toString()).containsExactly(id);
        EngineExecutionResults results = kit(dir).configurationParameter("servebench.param.rate", "4,8")
                .selectors(selectUniqueId(id)).execute();
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        String json = Files.readString(dir.resolve("TwoVariants").resolve("results.json"));
        assertThat(json).contains("TwoVariants.mtp").doesNotContain("TwoVariants.baseline");
        com.fasterxml.jackson.databind.JsonNode entries = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertThat(entries).hasSize(1);
        assertThat(Files.readString(dir.resolve("TwoVariants").resolve("summary.md"))).contains("mtp · rate 8 req/s")
                .doesNotContain("rate 4 req/s");

        // the server configuration's container: its trials, not the other server's
        String server = all.getEngineDescriptor().getDescendants().stream()
                .filter(d -> d.getType() == TestDescriptor.Type.CONTAINER && d.getDisplayName().contains("speculative"))
                .findFirst().orElseThrow().getUniqueId().toString();
        assertThat(names(kit(dir).configurationParameter("servebench.param.rate", "4,8").selectors(selectUniqueId(server))
                .discover())).containsExactly("CONTAINER TwoVariants", "CONTAINER sim Qwen/Qwen3.5-9B --max-model-len=4096"
                        + " --speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
                "TEST mtp · constant 4 req/s", "TEST mtp · constant 8 req/s");

        // the variant's method selected beside it: its every trial runs
        assertThat(names(kit(dir).configurationParameter("servebench.param.rate", "4,8")
                .selectors(selectUniqueId(id), selectMethod(TwoVariants.class, "mtp")).discover()))
                .contains("TEST mtp · constant 4 req/s", "TEST mtp · constant 8 req/s");
    }

    @Test
    void aTrialsIdThatTheStudyNoLongerPlansFailsTheStudySayingSo(@TempDir Path dir) {
        // an id listed before the study's flags changed: its key's server hash is no longer in the plan
        String stale = "[engine:servebench]/[study:" + TwoVariants.class.getName() + "]/[server:sim-00000000]"
                + "/[trial:mtp@sim-00000000-constant-8]";
        EngineExecutionResults results = kit(dir).selectors(selectUniqueId(stale)).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Event failed = results.testEvents().failed().list().get(0);
        assertThat(failed.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
                .orElseThrow().getMessage()).contains("the test asked for trial sim-00000000-constant-8, which TwoVariants"
                        + " no longer plans (its flags, params or load changed since that test was listed)")
                .contains("-constant-8)");
    }

    @Test
    void aTuningStudyIsOneTestThatRunsItsMethod(@TempDir Path dir) {
        EngineDiscoveryResults discovery = kit(dir).selectors(selectClass(io.servebench.junit.fixtures.TunedTwoVariants.class))
                .discover();
        assertThat(names(discovery)).containsExactly("TEST TunedTwoVariants");
        EngineExecutionResults results = kit(dir).selectors(selectClass(io.servebench.junit.fixtures.TunedTwoVariants.class))
                .execute();
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        assertThat(dir.resolve("TunedTwoVariants").resolve("summary.md")).content().contains("How the tuner chose");
    }

    @Test
    void aPackageSelectsEveryStudyInIt(@TempDir Path dir) {
        EngineDiscoveryResults discovery = kit(dir).selectors(selectPackage("io.servebench.junit.fixtures")).discover();
        assertThat(discovery.getEngineDescriptor().getChildren()).extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder("TwoVariants", "MissedSlo", "EngineThatCannotStart", "TunedTwoVariants");
    }

    @Test
    void eachTrialIsATestWithItsHeadlineNumbersAndTheRunFolderIsWritten(@TempDir Path dir) throws Exception {
        EngineExecutionResults results = kit(dir).selectors(selectClass(TwoVariants.class)).execute();
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2).failed(0));
        results.containerEvents().assertStatistics(s -> s.started(4).succeeded(4));
        List<Map<String, String>> entries = results.testEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).toList();
        assertThat(entries).hasSize(2).allSatisfy(e -> {
            assertThat(e).containsKeys("mean latency (s)", "median TTFT (ms)", "median ITL (ms)",
                    "output throughput (tok/s)", "request throughput (req/s)");
            assertThat(e).containsEntry("failed requests", "0");
            assertThat(Double.parseDouble(e.get("mean latency (s)"))).isPositive();
        });
        Path run = dir.resolve("TwoVariants");
        assertThat(run.resolve("results.json")).exists();
        assertThat(Files.readString(run.resolve("summary.md"))).contains("TwoVariants.mtp");
    }

    @Test
    void aTrialBelowItsMinimumSloAttainmentFailsItsTest(@TempDir Path dir) {
        EngineExecutionResults results = kit(dir).selectors(selectClass(MissedSlo.class)).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Event failed = results.testEvents().failed().list().get(0);
        assertThat(failed.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
                .orElseThrow().getMessage())
                .contains("tooStrict at 8 req/s: 0.0% of requests met the SLOs ttft=0.001; expected at least 99.0%"
                        + " (@Slo(minAttainment = 0.99))");
    }

    @Test
    void anEngineThatCannotStartFailsItsTrialsWithTheReason(@TempDir Path dir) {
        EngineExecutionResults results = kit(dir).selectors(selectClass(EngineThatCannotStart.class)).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        assertThat(results.testEvents().failed().list().get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .orElseThrow().getThrowable().orElseThrow().getMessage())
                .startsWith("engine did not start: cannot start /nonexistent/servebench-test-engine");
        results.containerEvents().assertStatistics(s -> s.succeeded(3));
    }
}
