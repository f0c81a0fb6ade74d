package io.servebench.plan;

import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.ServerConfig;
import io.servebench.study.ParamSpec;
import io.servebench.study.StudyDescriptor;
import io.servebench.study.VariantDescriptor;
import io.servebench.study.WorkloadOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrialPlannerTest {

    private static final WorkloadOptions AT_8 = new WorkloadOptions("synthetic-sharegpt", "constant", 8.0, null, 100, null);
    private static final List<String> BASE = List.of("--reasoning-parser=qwen3", "--max-model-len=32768");

    private static VariantDescriptor variant(String name, String group, boolean baseline, String... flags) {
        return new VariantDescriptor(name, group, List.of(flags), "", baseline, WorkloadOptions.UNSET);
    }

    private static StudyDescriptor tuning() {
        return new StudyDescriptor("x.Tuning", "m", "", "vllm", BASE, AT_8,
                List.of(new ParamSpec("maxNumSeqs", "int", List.of("128", "256"))),
                List.of(variant("baseline", "", true),
                        new VariantDescriptor("sglang", "engine", List.of("--context-length=32768"), "sglang", false, WorkloadOptions.UNSET),
                        variant("seqs", "max-num-seqs", false, "--max-num-seqs=${maxNumSeqs}"),
                        variant("spec", "spec", false, "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}",
                                "--performance-mode=interactivity")));
    }

    private static StudyDescriptor rates() {
        return new StudyDescriptor("x.Rates", "m", "", "vllm", BASE, AT_8,
                List.of(new ParamSpec("rate", "double", List.of("1", "8"))),
                List.of(variant("baseline", "", true),
                        // same flags as Tuning.spec, another order: one server, and at rate 8 one trial
                        variant("recommended", "", false, "--performance-mode=interactivity",
                                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":1}")));
    }

    private static TrialPlan plan(Map<String, List<String>> overrides, StudyDescriptor... studies) {
        return new TrialPlanner(overrides).plan(java.util.Arrays.stream(studies)
                .map(s -> new TrialPlanner.Selection(s, s.variants())).toList());
    }

    /** A -p that no selected variant's load uses is refused: the run would be another than the one asked for. */
    @Test
    void aRateOrConcurrencyOverrideThatNoLoadUsesIsRefused() {
        // Tuning's loads are constant rates (AT_8): a concurrency would change nothing
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> plan(Map.of("concurrency", List.of("8")), tuning()))
                .hasMessage("-p concurrency=8: no selected variant's load is a closed loop (profile concurrent), so each"
                        + " would ignore it; expected -p profile=concurrent with it, or -p maxConcurrency=N to cap a rate's"
                        + " requests in flight");
        // with the profile that uses it, it is a closed loop of 8 streams
        TrialPlan closed = plan(Map.of("concurrency", List.of("8"), "profile", List.of("concurrent")), tuning());
        assertThat(closed.trials()).allSatisfy(t -> assertThat(t.workload().concurrency()).isEqualTo(8));
        // a study's own @Param of that name is an axis of its own
        StudyDescriptor streams = new StudyDescriptor("x.Streams", "m", "", "vllm", BASE, AT_8,
                List.of(new ParamSpec("concurrency", "int", List.of("1", "8"))), List.of(variant("baseline", "", true)));
        assertThat(plan(Map.of("concurrency", List.of("4")), streams).trials()).isNotEmpty();
    }

    @Test
    void variantsExpandOnlyOverTheParamsTheyUse() {
        TrialPlan plan = plan(Map.of(), tuning());
        assertThat(plan.blocks()).extracting(p -> p.variant() + p.paramValues())
                .containsExactly("baseline{}", "sglang{}", "seqs{maxNumSeqs=128}", "seqs{maxNumSeqs=256}", "spec{}");
        assertThat(plan.blocks().get(3).trial().server().args()).contains("--max-num-seqs=256");
    }

    @Test
    void identicalTrialsAreMeasuredOnceAndReportedEverywhere() {
        TrialPlan plan = plan(Map.of(), tuning(), rates());
        // Tuning: 5 blocks; Rates: 2 variants x 2 rates = 4 blocks.
        assertThat(plan.blocks()).hasSize(9);
        // baseline@8 and spec@8 appear in both studies.
        assertThat(plan.trials()).hasSize(7);
        ResultBlock tuningBaseline = plan.blocks().get(0);
        ResultBlock ratesBaselineAt8 = plan.blocks().stream()
                .filter(p -> p.benchmark().equals("x.Rates.baseline") && p.paramValues().get("rate").equals("8")).findFirst().orElseThrow();
        assertThat(ratesBaselineAt8.trial()).isEqualTo(tuningBaseline.trial());
        assertThat(plan.blocksOf(tuningBaseline.trial())).hasSize(2);
    }

    /**
     * A study's rates under a profile that sends at no rate are one trial a variant, and one block: a block for each rate
     * (before stop 77) was that trial reported again, the same name, params and figures, twice in results.json.
     */
    @Test
    void ratesThatTheLoadIgnoresAreOneBlockNotOneBlockPerRate() {
        for (String profile : List.of("throughput", "synchronous")) {
            TrialPlan plan = plan(Map.of("profile", List.of(profile)), rates());
            assertThat(plan.trials()).as(profile).hasSize(2);
            assertThat(plan.blocks()).as(profile).extracting(ResultBlock::benchmark)
                    .containsExactly("x.Rates.baseline", "x.Rates.recommended");
        }
        // at rates, each is a load of its own
        assertThat(plan(Map.of(), rates()).blocks()).hasSize(4);
    }

    @Test
    void trialsSharingAServerAreAdjacentAndCountedAsOneStart() {
        TrialPlan plan = plan(Map.of(), tuning(), rates());
        // servers: baseline, sglang, seqs128, seqs256, spec (= recommended in another flag order)
        assertThat(plan.serverStarts()).isEqualTo(5);
        List<String> order = plan.trials().stream().map(Trial::serverId).toList();
        for (int i = 1; i < order.size(); i++) {
            if (!order.get(i).equals(order.get(i - 1))) {
                assertThat(order.subList(i, order.size())).doesNotContain(order.get(i - 1));
            }
        }
    }

    @Test
    void engineSwitchDoesNotInheritTheClassFlags() {
        TrialPlan plan = plan(Map.of(), tuning());
        ServerConfig sglang = plan.blocks().get(1).trial().server();
        assertThat(sglang.kind().name()).isEqualTo("sglang");
        assertThat(sglang.args()).containsExactly("--context-length=32768");
    }

    @Test
    void commandLineOverridesReplaceParamValuesAndWorkloadSettings() {
        TrialPlan plan = plan(Map.of("rate", List.of("2", "4"), "requests", List.of("30"), "maxNumSeqs", List.of("64")), tuning());
        assertThat(plan.blocks()).extracting(p -> p.variant() + p.paramValues()).contains(
                "baseline{rate=2, requests=30}", "seqs{maxNumSeqs=64, rate=4, requests=30}");
        assertThat(plan.trials()).allSatisfy(t -> assertThat(t.workload().requests()).isEqualTo(30));
        assertThat(plan.trials()).extracting(t -> t.workload().rate()).containsOnly(2.0, 4.0);
    }

    @Test
    void methodWorkloadOverridesClassWhichOverridesDefaults() {
        StudyDescriptor study = new StudyDescriptor("x.S", "m", "", "sim", List.of(),
                new WorkloadOptions(null, null, 3.0, null, null, null), List.of(),
                List.of(new VariantDescriptor("v", "", List.of(), "", false, new WorkloadOptions(null, null, null, null, 7, null))));
        WorkloadParams w = plan(Map.of(), study).trials().get(0).workload();
        assertThat(w).isEqualTo(new WorkloadParams("synthetic-sharegpt", "constant", 3.0, 1, 7, 0));
    }

    @Test
    void badOverridesNameTheOptionAndWhatWasExpected() {
        assertThatThrownBy(() -> plan(Map.of("rate", List.of("0")), tuning()))
                .hasMessageContaining("-p rate=0").hasMessageContaining("a positive, finite number of requests per second");
        assertThatThrownBy(() -> plan(Map.of("requests", List.of("ten")), tuning()))
                .hasMessageContaining("-p requests=ten").hasMessageContaining("whole number");
        assertThatThrownBy(() -> plan(Map.of("profile", List.of("bursty")), tuning()))
                .hasMessageContaining("unknown profile \"bursty\"").hasMessageContaining("constant");
        assertThatThrownBy(() -> plan(Map.of("maxNumSeq", List.of("1")), tuning()))
                .hasMessageContaining("-p maxNumSeq").hasMessageContaining("maxNumSeqs");
    }

    @Test
    void flagSpellingsOfOneServerAreOneConfiguration() {
        ServerConfig a = new ServerConfig(EngineKinds.VLLM, "m", List.of(io.servebench.flags.Flag.parse("--max_num_seqs 8").orElseThrow(),
                io.servebench.flags.Flag.parse("--enable-prefix-caching").orElseThrow()));
        ServerConfig b = new ServerConfig(EngineKinds.VLLM, "m", List.of(io.servebench.flags.Flag.parse("--enable-prefix-caching").orElseThrow(),
                io.servebench.flags.Flag.parse("--max-num-seqs=8").orElseThrow()));
        assertThat(a).isEqualTo(b);
        assertThat(a.hash()).isEqualTo(b.hash());
    }

    @Test
    void typedServerOptionsBecomeFlagsOfEachVariantsEngineAndRawFlagsWin() {
        io.servebench.engine.kind.ServerSettingsOptions options =
                new io.servebench.engine.kind.ServerSettingsOptions(16384, null, null, 64, null, null, null);
        StudyDescriptor study = new StudyDescriptor("x.Typed", "m", "", "vllm", List.of("--max-num-seqs=32"), AT_8, List.of(),
                List.of(variant("vllm", "", true),
                        new VariantDescriptor("sglang", "", List.of(), "sglang", false, WorkloadOptions.UNSET)),
                io.servebench.engine.kind.EngineSetup.NONE, io.servebench.study.SloOptions.UNSET, options, java.util.Optional.empty());
        TrialPlan plan = new TrialPlanner(Map.of(), EngineOverrides.NONE)
                .plan(List.of(new TrialPlanner.Selection(study, study.variants())));
        assertThat(plan.blocks().get(0).trial().server().args()).containsExactly("--max-model-len=16384", "--max-num-seqs=32");
        assertThat(plan.blocks().get(1).trial().server().args()).containsExactly("--context-length=16384", "--max-running-requests=64");
    }

    @Test
    void aRateOfConversationsIsCalledSoInTheLoadLabel() {
        assertThat(new WorkloadParams("multi-turn:turns=3,in=fixed(5),out=fixed(5)", "constant", 2, 1, 30, 0).loadLabel())
                .isEqualTo("constant 2 conversations/s");
    }
}
