package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Expert parallelism: whole experts dealt to groups of GPUs (vLLM's {@code --enable-expert-parallel}, SGLang's
 * {@code --ep-size}), so a step reads and computes its experts at the pace of the group its tokens load most.
 */
class ExpertParallelTest {

    /** Qwen3-235B-A22B's routing: 128 experts a layer, 8 a token. */
    private static final ModelProfile.Experts QWEN3_235B = new ModelProfile.Experts(94, 128, 8, 3.0 * 4096 * 1536);

    /** The expected maximum of standard normals: 1/sqrt(pi) for two (exact), 1.4236 for eight (Harter's tables). */
    @Test
    void theExpectedMaximumOfNormalsIsTheTablesOne() {
        assertThat(ModelProfile.Experts.normalMaximum(1)).isZero();
        assertThat(ModelProfile.Experts.normalMaximum(2)).isCloseTo(1 / Math.sqrt(Math.PI), within(1e-3));
        assertThat(ModelProfile.Experts.normalMaximum(8)).isCloseTo(1.4236, within(2e-3));
    }

    /**
     * The busiest group's touched experts and token-expert pairs against routings drawn at random (each token to 8
     * distinct experts of 128, eight groups of 16), from one token to a batch of hundreds: within 12% of the mean over
     * draws, the formulas' normal approximation of a binomial maximum.
     */
    @Test
    void theBusiestGroupIsWhatRandomRoutingsGive() {
        SplittableRandom random = new SplittableRandom(7);
        for (int tokens : new int[] {1, 8, 64, 512}) {
            double touched = 0;
            double pairs = 0;
            int draws = 2000;
            for (int d = 0; d < draws; d++) {
                boolean[] hit = new boolean[128];
                int[] pairsOf = new int[8];
                for (int t = 0; t < tokens; t++) {
                    boolean[] mine = new boolean[128];
                    for (int k = 0; k < 8; k++) {
                        int e;
                        do {
                            e = random.nextInt(128);
                        } while (mine[e]);
                        mine[e] = true;
                        hit[e] = true;
                        pairsOf[e / 16]++;
                    }
                }
                int most = 0;
                for (int g = 0; g < 8; g++) {
                    int n = 0;
                    for (int e = g * 16; e < (g + 1) * 16; e++) {
                        n += hit[e] ? 1 : 0;
                    }
                    most = Math.max(most, n);
                }
                touched += most;
                pairs += java.util.Arrays.stream(pairsOf).max().orElseThrow();
            }
            assertThat(QWEN3_235B.busiestGroupTouched(tokens, 8)).as("touched at %d tokens", tokens)
                    .isCloseTo(touched / draws, within(0.12 * touched / draws));
            assertThat(QWEN3_235B.busiestGroupPairs(tokens, 8)).as("pairs at %d tokens", tokens)
                    .isCloseTo(pairs / draws, within(0.12 * pairs / draws));
        }
    }

    /**
     * One stream on eight GPUs reads its experts' weights from the busiest group, about 2.4 of its 8 experts whole, where
     * tensor parallelism has every GPU read an eighth of all 8: the step is longer. A batch of hundreds touches every
     * expert of every group and loads the groups nearly evenly: the two are within 5%.
     */
    @Test
    void expertParallelismCostsOneStreamItsBusiestGroupAndABatchAboutNothing() {
        SimParams tp = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h200"));
        SimParams ep = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=8", "--enable-expert-parallel"), GpuProfile.named("h200"));
        assertThat(tp.expertParallelSize()).isEqualTo(1);
        assertThat(ep.expertParallelSize()).isEqualTo(8);
        ModelProfile m = ep.model();
        double expertBytes = m.experts().layers() * m.experts().parameters() * m.expertBytesPerParameter();
        assertThat(m.weightBytesRead(1, 8) - m.weightBytesRead(1))
                .isCloseTo(expertBytes * (8 * QWEN3_235B.busiestGroupTouched(1, 8) - 8), within(1.0));
        long oneTp = new StepCostModel(tp).stepNanos(1, 1000, 1, 0, 0);
        long oneEp = new StepCostModel(ep).stepNanos(1, 1000, 1, 0, 0);
        assertThat(oneEp).isGreaterThan(oneTp);
        long batchTp = new StepCostModel(tp).stepNanos(512, 512_000, 512, 0, 0);
        long batchEp = new StepCostModel(ep).stepNanos(512, 512_000, 512, 0, 0);
        assertThat((double) batchEp / batchTp).isBetween(1.0, 1.05);
        assertThat(ep.startLog()).contains("experts divided among 8 groups of 1 GPU, 16.0 a group")
                .noneMatch(line -> line.contains("ignores flag --enable-expert-parallel"));
        // expert parallelism is a kind of its own in the evidence: no published vLLM case on H200s uses it
        assertThat(TwinEvidence.bars(ep, "h200")).hasSize(2).allSatisfy(bar -> {
            assertThat(bar.published()).isEmpty();
            assertThat(bar.calibration()).isEmpty();
        });
        assertThat(TwinEvidence.bars(tp, "h200")).isEqualTo(TwinEvidence.bars("vllm", "h200", "moe", true, false))
                .anySatisfy(bar -> assertThat(bar.published()).hasValueSatisfying(e -> assertThat(e.expertParallel())
                        .isFalse()));
    }

    /** SGLang's --ep-size divides --tp-size; an expert is then split over the GPUs of its group. A dense model has none. */
    @Test
    void sglangsEpSizeIsItsGroupsAndMustDivideTheTensorParallelSize() {
        SimParams four = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tp-size=8", "--ep-size=4"), GpuProfile.named("h200"));
        assertThat(four.expertParallelSize()).isEqualTo(4);
        // the engines' aliases and abbreviations, as their parsers read them (FlagCatalog.resolved)
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tp=8", "--expert-parallel-size=4"), GpuProfile.named("h200"))).isEqualTo(four);
        SimParams vllmAliases = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("-tp=8", "-ep"), GpuProfile.named("h200"));
        assertThat(vllmAliases.tensorParallelSize()).isEqualTo(8);
        assertThat(vllmAliases.expertParallelSize()).isEqualTo(8);
        assertThat(four.startLog()).contains("experts divided among 4 groups of 2 GPUs, 32.0 a group");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tp-size=8", "--ep-size=3"), GpuProfile.named("h200")))
                .hasMessageContaining("the expert-parallel size 3 must divide the tensor-parallel size 8");
        // SGLang's groups divide MoE layers only: a dense model is served as without them (its steps cost what they
        // cost at --ep-size 1, where they were not even a number and the virtual engine stopped scheduling)
        SimParams dense = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-32B", List.of("--tp-size=2", "--ep-size=2"),
                GpuProfile.named("h100"));
        assertThat(dense.startLog()).contains("expert parallelism has no experts to divide: Qwen/Qwen3-32B is dense");
        SimParams denseTp = SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-32B", List.of("--tp-size=2"),
                GpuProfile.named("h100"));
        assertThat(new StepCostModel(dense).stepNanos(512, 512_000, 512, 0, 0))
                .isPositive().isEqualTo(new StepCostModel(denseTp).stepNanos(512, 512_000, 512, 0, 0));
        // vLLM refuses expert parallelism for a model without experts before it loads anything
        // (ModelConfig._verify_with_expert_parallelism, vllm/config/model.py at v0.26.0)
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-32B",
                List.of("--tensor-parallel-size=2", "--enable-expert-parallel"), GpuProfile.named("h100")))
                .hasMessage("the engine would not start: vLLM refuses --enable-expert-parallel for a model without"
                        + " experts (\"Number of experts in the model must be greater than 0 when expert parallelism is"
                        + " enabled.\"); expected the flag left out for Qwen/Qwen3-32B, a dense model");
    }
}
