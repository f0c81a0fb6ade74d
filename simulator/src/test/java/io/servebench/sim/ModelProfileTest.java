package io.servebench.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Parameter counts from config.json against the totals the model cards publish. */
class ModelProfileTest {

    @Test
    void qwen3_8bCountsTheEightPointTwoBillionItsCardStates() {
        ModelProfile m = ModelProfile.forModel("Qwen/Qwen3-8B");

        // model card: 8.2B parameters, 6.95B of them outside the embeddings
        assertThat(m.parameters()).isCloseTo(8.2e9, within(0.05e9));
        assertThat(m.parameters() - 2 * 151936.0 * 4096).isCloseTo(6.95e9, within(0.02e9));
        assertThat(m.activeParameters()).isEqualTo(m.parameters());
        // 36 layers x 8 KV heads x 128 x 2 (K and V) x 2 B
        assertThat(m.kvBytesPerToken()).isEqualTo(36 * 8 * 128 * 2 * 2);
        assertThat(m.stateBytesPerSequence()).isZero();
    }

    @Test
    void qwen3_30bA3bCountsThirtyPointFiveBillionOfWhichThreePointThreeActive() {
        ModelProfile m = ModelProfile.forModel("Qwen/Qwen3-30B-A3B");

        // model card: 30.5B in total, 3.3B activated
        assertThat(m.parameters()).isCloseTo(30.5e9, within(0.1e9));
        assertThat(m.activeParameters()).isCloseTo(3.3e9, within(0.1e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(48 * 4 * 128 * 2 * 2);
    }

    @Test
    void aMixtureOfExpertsPrefillCostsItsActiveParametersAndADecodeStepReadsTheExpertsItsTokensUse(@TempDir Path dir)
            throws IOException {
        Files.writeString(dir.resolve("config.json"), ModelConfigs.QWEN3_30B_A3B);
        SimParams moe = SimParams.fromFlags(SimDialect.VLLM, "my-moe", List.of("--hf-config-path=" + dir));
        ModelProfile m = moe.model();
        assertThat(m.activeParameters()).isCloseTo(3.3e9, within(0.1e9));

        StepCostModel cost = new StepCostModel(moe);
        double bandwidth = 3.35e12 * 0.85;
        double flops = 989e12 * 0.69;
        // the routed experts a token runs through (48 sparse layers x top 8 x 3 x 2048 x 768) multiply at the 16.5% of the
        // bf16 peak that fused_moe reaches on this shape (vLLM PR #24700 and #35457), the rest at 69% (measured on an
        // H100), all but the vocabulary's two tables of 151,936 x 2048: the input's is looked up, the output's multiplies
        // the one sampled position
        double routed = 48 * 8 * 3 * 2048 * 768.0;
        double expertFlops = 989e12 * 0.165;
        // a 4096-token prefill is compute-bound on the active parameters; a one-token decode step reads the weights
        // one token uses: the model card's 3.3B activated, not its 30.5B
        long prefill = cost.stepNanos(4096, 0, 1, 0, 0);
        long decode = cost.stepNanos(1, 0, 1, 0, 0);
        // plus the fused MoE kernel's fixed time in each of its 48 sparse layers
        double table = 151_936.0 * 2048;
        double oneToken = (3.3e9 - table) * 2 / bandwidth + 48 * StepCostModel.MOE_LAYER_FLOOR_NANOS / 1e9;
        double denseCompute = 2 * (m.activeParameters() - 2 * table - routed) * 4096 / flops;
        double expertCompute = 2 * routed * 4096 / expertFlops;
        assertThat(denseCompute + expertCompute).isGreaterThan(m.weightBytes() / bandwidth);
        // 4096 tokens touch all 128 experts of every sparse layer, in 16 bits: 58 GB, 20 ms; the fused MoE kernel, a kernel
        // of its own, joins that read and its 91 ms of products by a norm of order 1.5 (StepCostModel.fusedMoe), which
        // adds 6 ms to them; the dense layers' 10 ms of products hide their 1 ms of reads (StepCostModel.products)
        double expertRead = 48 * 128 * 3 * 2048 * 768.0 * 2 / bandwidth;
        double experts = Math.pow(Math.pow(expertRead, 1.5) + Math.pow(expertCompute, 1.5), 1 / 1.5);
        assertThat(experts - expertCompute).isCloseTo(6e-3, within(1e-3));
        // the kernel's fixed time is paid at every step, as its published times show at every batch (FusedMoeKernelTest);
        // and the small kernels' activation traffic (StepCostModel.elementwiseSeconds, counted by hand elsewhere)
        double floors = 48 * StepCostModel.MOE_LAYER_FLOOR_NANOS / 1e9;
        double elementwise = cost.elementwiseSeconds(4096) - cost.elementwiseSeconds(1);
        assertThat((prefill - decode) / 1e9).isCloseTo(denseCompute + experts + floors + elementwise - oneToken,
                within(0.5e-3));
        // a batch of a few hundred tokens reads every expert: the card's 30.5B, but the input embedding's rows
        assertThat(m.weightBytesRead(512) / 2).isCloseTo(30.5e9 - table, within(0.1e9));
    }

    /**
     * FP8 weights are one byte and multiply on the FP8 tensor cores (the H100 datasheet: 1,979 dense FP8 TFLOP/s
     * against 989 bf16); the A100 has none and computes in bf16; an FP8 KV cache halves a 16-bit one.
     */
    @Test
    void fp8WeightsAreOneByteAndMultiplyOnFp8TensorCores() {
        SimParams bf16 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of());
        SimParams fp8 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--quantization=fp8"));
        // the layers' weights halve; the vocabulary's two tables of 151,936 x 4,096 stay 16-bit (vLLM's Fp8Config
        // quantises linear and fused-MoE layers, no embedding)
        double tables = 2 * 151_936.0 * 4096;
        assertThat(fp8.model().weightBytes()).isEqualTo((bf16.model().weightBytes() - tables * 2) / 2 + tables * 2);
        assertThat(fp8.model().kvBytesPerToken()).isEqualTo(bf16.model().kvBytesPerToken());
        assertThat(fp8.ignoredFlags()).isEmpty();
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--kv-cache-dtype=fp8_e4m3"))
                .model().kvBytesPerToken()).isEqualTo(bf16.model().kvBytesPerToken() / 2);

        // the layers' weights, multiplied for each of the 8,192 tokens (the vocabulary's tables are not)
        double layers = bf16.model().activeParameters() - 2 * 151_936.0 * 4096;
        long prefillBf16 = new StepCostModel(bf16).stepNanos(8192, 0, 1, 0, 0);
        long prefillFp8 = new StepCostModel(fp8).stepNanos(8192, 0, 1, 0, 0);
        // the FP8 tensor cores' FLOPs (60% of 1,979 TFLOP/s against 69% of 989 for bf16, as measured on an H100), less
        // a small kernel before each of the 36 layers' 4 products that quantises its activations, and what those read
        // and write (2 B in, 1 B out, a value of each product's input: 4,096 for qkv, o and gate_up, 12,288 for down);
        // within 10 us for the weights' read time, which adds next to nothing to a product this long, and the one
        // sequence's logits
        double quantised = 36 * (3 * 4096 + 12_288) * 3.0 * 8192 / (3.35e12 * 0.85);
        double saved = 2 * layers * 8192 / (989e12 * 0.69) - 2 * layers * 8192 / (1979e12 * 0.60)
                - 36 * 4 * StepCostModel.SMALL_KERNEL_NANOS / 1e9 - quantised;
        assertThat((prefillBf16 - prefillFp8) / 1e9).isCloseTo(saved, within(1e-5));

        SimParams a100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--quantization=fp8"),
                GpuProfile.named("a100"));
        SimParams a100Bf16 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of(), GpuProfile.named("a100"));
        // the A100 computes them in bf16: the same 0.6 s prefill, but for the weights' read time (half of it, 1 byte a
        // weight), which adds under a microsecond to a product this long
        assertThat(new StepCostModel(a100).stepNanos(8192, 0, 1, 0, 0))
                .isCloseTo(new StepCostModel(a100Bf16).stepNanos(8192, 0, 1, 0, 0), within(1_000L));
        // an FP8 checkpoint says so in its config: the same bytes as the flag's
        assertThat(ModelProfile.forModel("Qwen/Qwen3-8B-FP8").weightBytes()).isEqualTo(fp8.model().weightBytes());
        double nextTables = 2 * 151_936.0 * 2048;
        assertThat(ModelProfile.forModel("Qwen/Qwen3-Next-80B-A3B-Instruct-FP8").weightBytes()).isEqualTo(
                (ModelProfile.forModel("Qwen/Qwen3-Next-80B-A3B-Instruct").weightBytes() - nextTables * 2) / 2
                        + nextTables * 2);
    }

    /**
     * A model with a native MTP head drafts with one full-attention decoder layer and the output projection: for
     * Qwen3.5-35B-A3B ({@code mtp_num_hidden_layers: 1}) that is its attention (2048 x 16 x 256 x 3 + 2048 x 2 x 256 x 2),
     * its sparse MLP (256 experts and a shared one of 3 x 2048 x 512, the router) and 248,320 x 2048 of head, over
     * the whole model; a model without one drafts at one layer's cost.
     */
    @Test
    void aNativeMtpHeadCostsItsLayerAndTheOutputProjection() {
        ModelProfile m = ModelProfile.forModel("Qwen/Qwen3.5-35B-A3B");
        double layer = 2048.0 * 16 * 256 * 3 + 2048.0 * 2 * 256 * 2 + 257 * 3.0 * 2048 * 512 + 2048.0 * 256;
        assertThat(m.draftFraction()).isCloseTo((layer + 248_320.0 * 2048) / m.parameters(), within(1e-9));
        assertThat(m.draftFraction()).isBetween(0.03, 0.05);
        assertThat(ModelProfile.forModel("Qwen/Qwen3-8B").draftFraction()).isEqualTo(1.0 / 36);
    }

    /**
     * The distinct experts a batch touches, against routing drawn at random: each of 16 tokens picks 8 of 128 experts
     * (Qwen3-30B-A3B's router), counted over many batches.
     */
    @Test
    void theExpertsABatchTouchesAreThoseRandomRoutingTouches() {
        ModelProfile.Experts experts = ModelProfile.forModel("Qwen/Qwen3-30B-A3B").experts();
        assertThat(experts).isEqualTo(new ModelProfile.Experts(48, 128, 8, 3.0 * 2048 * 768));
        java.util.Random random = new java.util.Random(7);
        for (int tokens : new int[] {1, 4, 16, 64}) {
            long distinct = 0;
            int batches = 20_000;
            for (int b = 0; b < batches; b++) {
                java.util.BitSet used = new java.util.BitSet(128);
                for (int t = 0; t < tokens; t++) {
                    java.util.BitSet mine = new java.util.BitSet(128);
                    while (mine.cardinality() < 8) {
                        mine.set(random.nextInt(128));
                    }
                    used.or(mine);
                }
                distinct += used.cardinality();
            }
            assertThat(experts.touched(tokens)).as("%d tokens", tokens).isCloseTo((double) distinct / batches,
                    within(0.3));
        }
        // a dense model's step reads every weight but its input embedding, of which it looks up its tokens' rows
        ModelProfile dense = ModelProfile.forModel("Qwen/Qwen3-8B");
        assertThat(dense.weightBytesRead(1)).isEqualTo(dense.weightBytes() - 151_936.0 * 4096 * 2);
    }

    /**
     * The fields of Qwen3-Next-80B-A3B-Instruct's {@code config.json} that the reader uses, as published
     * (huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct): 48 layers, every fourth full attention.
     */
    static final String QWEN3_NEXT = "{\"architectures\":[\"Qwen3NextForCausalLM\"],\"hidden_size\":2048,"
            + "\"num_hidden_layers\":48,\"num_attention_heads\":16,"
            + "\"num_key_value_heads\":2,\"head_dim\":256,\"intermediate_size\":5120,\"moe_intermediate_size\":512,"
            + "\"shared_expert_intermediate_size\":512,\"num_experts\":512,\"num_experts_per_tok\":10,"
            + "\"decoder_sparse_step\":1,\"mlp_only_layers\":[],\"full_attention_interval\":4,"
            + "\"linear_num_key_heads\":16,\"linear_num_value_heads\":32,\"linear_key_head_dim\":128,"
            + "\"linear_value_head_dim\":128,\"linear_conv_kernel_dim\":4,\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":262144}";

    @Test
    void aHybridConfigKeepsKvOnlyInItsFullAttentionLayersAndAStatePerSequenceInTheOthers() {
        ModelProfile m = ModelProfile.fromConfig("Qwen/Qwen3-Next-80B-A3B-Instruct", QWEN3_NEXT);

        // the model card: 80B parameters, 3B activated (3.9e9 counted here with the embeddings, 3.3e9 without)
        assertThat(m.parameters()).isCloseTo(80e9, within(1e9));
        assertThat(m.activeParameters()).isCloseTo(3.87e9, within(0.05e9));
        // 12 full-attention layers: 2 x 12 x 2 KV heads x 256 x 2 bytes = 24 KiB per token
        assertThat(m.kvBytesPerToken()).isEqualTo(2.0 * 12 * 2 * 256 * 2);
        // 36 linear layers: 32 x 128 x 128 x 4 bytes of state and 3 x (2 x 2048 + 4096) x 2 bytes of conv window each
        assertThat(m.stateBytesPerSequence()).isEqualTo(36 * (32.0 * 128 * 128 * 4 + 3.0 * (2 * 2048 + 4096) * 2));
        ModelProfile listed = ModelProfile.fromConfig("m", QWEN3_NEXT.replace("\"full_attention_interval\":4",
                "\"layer_types\":" + layerTypes()));
        assertThat(listed).isEqualTo(ModelProfile.fromConfig("m", QWEN3_NEXT));
    }

    /**
     * gpt-oss-20b against its model card ("21B parameters with 3.6B active", 24 layers, 32 experts, top 4) and the
     * arithmetic of its config: 12 full-attention layers of 8 KV heads of 64 dimensions, 12 sliding ones with a window of
     * 128 tokens, experts in MXFP4 (32 four-bit values and one 8-bit scale a block) beside bf16 attention and embeddings.
     */
    @Test
    void gptOssReadsItsSlidingLayersAndMxfp4ExpertsFromItsConfig() {
        ModelProfile m = ModelProfile.forModel("openai/gpt-oss-20b");
        assertThat(m.parameters()).isCloseTo(21e9, within(0.2e9));
        // the card's 3.6B leaves out the input embeddings (201,088 x 2,880 = 0.58e9), counted here
        assertThat(m.activeParameters() - 201_088.0 * 2_880).isCloseTo(3.6e9, within(0.05e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(12 * 2 * 8 * 64 * 2.0);
        // 64 query heads of 64 in every layer: q.k and the weighted v, a multiply-add per dimension, per query and key
        assertThat(m.window()).isEqualTo(new ModelProfile.Window(128, 12 * 2 * 8 * 64 * 2.0, 12 * 4 * 64 * 64.0,
                ModelProfile.SglangWindow.OWN_POOL));
        assertThat(m.attentionFlopsPerPair()).isEqualTo(12 * 4 * 64 * 64.0);
        // a 10,000-token sequence: every token in the full layers, the last 128 in the sliding ones
        assertThat(m.kvBytes(10_000)).isEqualTo(12 * 2 * 8 * 64 * 2.0 * (10_000 + 128));
        // 24 layers x 32 experts x 3 x 2,880 x 2,880 weights at 4.25 bits, the rest at 2 bytes
        double experts = 24 * 32 * 3 * 2880.0 * 2880;
        assertThat(m.weightBytes()).isCloseTo(experts * 4.25 / 8 + (m.parameters() - experts) * 2, within(1.0));
        assertThat(m.weightBytes() / (1L << 30)).isBetween(12.0, 14.0);
    }

    /**
     * gpt-oss-120b against the card in openai/gpt-oss's README ("117B parameters with 5.1B active parameters") and its
     * shape (36 layers, every other one sliding over 128 tokens, 128 experts of which 4 per token).
     */
    @Test
    void gptOss120bIsTheSameFamilyWithMoreLayersAndExperts() {
        ModelProfile m = ModelProfile.forModel("openai/gpt-oss-120b");
        assertThat(m.parameters()).isCloseTo(117e9, within(1e9));
        assertThat(m.activeParameters() - 201_088.0 * 2_880).isCloseTo(5.1e9, within(0.1e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(18 * 2 * 8 * 64 * 2.0);
        assertThat(m.window()).isEqualTo(new ModelProfile.Window(128, 18 * 2 * 8 * 64 * 2.0, 18 * 4 * 64 * 64.0,
                ModelProfile.SglangWindow.OWN_POOL));
        double experts = 36 * 128 * 3 * 2880.0 * 2880;
        assertThat(m.weightBytes()).isCloseTo(experts * 4.25 / 8 + (m.parameters() - experts) * 2, within(1.0));
    }

    /**
     * GLM-4.5-Air against its model card on huggingface.co/zai-org/GLM-4.5-Air ("106 billion total parameters and 12
     * billion active parameters"; the card counts no embeddings in the active ones) and its shape: 46 layers, the first
     * dense, 8 of 128 routed experts and one shared; 8 KV heads of 128.
     */
    @Test
    void glm45AirIsAHundredAndSixBillionWithTwelveActive() {
        ModelProfile m = ModelProfile.forModel("zai-org/GLM-4.5-Air");
        assertThat(m.parameters()).isCloseTo(106e9, within(1.5e9));
        assertThat(m.activeParameters() - 2 * 151_552.0 * 4096).isCloseTo(12e9, within(0.5e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(46 * 2 * 8 * 128 * 2.0);
        assertThat(m.experts().count()).isEqualTo(128);
        assertThat(m.experts().layers()).isEqualTo(45);
    }

    /**
     * GLM-4.6 against its model card on huggingface.co/zai-org/GLM-4.6 ("355B total parameters and 32B active"; no
     * embeddings counted in the active ones), and its FP8 checkpoint as the same shape at a byte a weight, its
     * vocabulary's tables at two.
     */
    @Test
    void glm46IsThreeHundredAndFiftyFiveBillionWithThirtyTwoActive() {
        ModelProfile m = ModelProfile.forModel("zai-org/GLM-4.6");
        assertThat(m.parameters()).isCloseTo(355e9, within(3e9));
        assertThat(m.activeParameters() - 2 * 151_552.0 * 5120).isCloseTo(32e9, within(1e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(92 * 2 * 8 * 128 * 2.0);
        assertThat(m.experts().layers()).isEqualTo(89);
        ModelProfile fp8 = ModelProfile.forModel("zai-org/GLM-4.6-FP8");
        assertThat(fp8.parameters()).isEqualTo(m.parameters());
        double tables = 2 * 151_552.0 * 5120;
        assertThat(fp8.weightBytes()).isCloseTo((m.weightBytes() - tables * 2) / 2 + tables * 2, within(1.0));
    }

    /**
     * DeepSeek-V3 (and R1, the same shapes) against its model card, "671B total parameters with 37B activated for each
     * token" (the MTP module's 14B on top), from its config.json (the values as copied in public code): multi-head latent
     * attention caches kv_lora_rank + qk_rope_head_dim = 576 values a layer and token, not 2 x 128 heads x 192.
     */
    @Test
    void deepSeekV3ReadsLatentAttentionAndItsExpertKeys() {
        String config = "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"hidden_size\":7168,"
                + "\"num_hidden_layers\":61,\"num_attention_heads\":128,"
                + "\"num_key_value_heads\":128,\"intermediate_size\":18432,\"moe_intermediate_size\":2048,"
                + "\"n_routed_experts\":256,\"n_shared_experts\":1,\"num_experts_per_tok\":8,"
                + "\"first_k_dense_replace\":3,\"moe_layer_freq\":1,\"q_lora_rank\":1536,\"kv_lora_rank\":512,"
                + "\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,\"vocab_size\":129280,"
                + "\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":1,\"max_position_embeddings\":163840,"
                + "\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":\"fp8\","
                + "\"weight_block_size\":[128,128]}}";
        ModelProfile m = ModelProfile.fromConfig("deepseek-ai/DeepSeek-V3", config);
        assertThat(m.parameters()).isCloseTo(671e9, within(2e9));
        // the card's 37B; counted here with the input embeddings (129,280 x 7,168 = 0.93e9)
        assertThat(m.activeParameters()).isCloseTo(37e9, within(1e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(61 * (512 + 64) * 2.0);
        assertThat(m.experts()).isEqualTo(new ModelProfile.Experts(58, 256, 8, 3 * 7168.0 * 2048));
        assertThat(m.fp8Weights()).isTrue();
        // the one latent head: every tensor-parallel rank keeps the whole cache
        assertThat(m.kvCopies(8)).isEqualTo(8);
        assertThat(m.kvCopies(1)).isEqualTo(1);
        // grouped-query attention is split over the ranks up to its KV heads and copied past them, as vLLM's and
        // SGLang's get_num_kv_heads give each rank max(1, num_kv_heads / tp) heads: Qwen3-235B-A22B has 4, Llama 3.1
        // 70B 8
        ModelProfile qwen = ModelProfile.forModel("Qwen/Qwen3-235B-A22B-Instruct-2507");
        assertThat(List.of(qwen.kvCopies(1), qwen.kvCopies(2), qwen.kvCopies(4), qwen.kvCopies(8)))
                .containsExactly(1, 1, 1, 2);
        assertThat(ModelProfile.forModel("meta-llama/Llama-3.1-70B-Instruct").kvCopies(8)).isEqualTo(1);
        // prefilled as 128 heads of q.k over 128 + 64 dimensions and v over 128 (vLLM's and SGLang's MLA prefill expands
        // the latent keys and values), a multiply-add each
        assertThat(m.attentionFlopsPerPair()).isEqualTo(61 * (2 * 128 * (128 + 64) + 2 * 128 * 128.0));
    }

    private static String layerTypes() {
        StringBuilder types = new StringBuilder("[");
        for (int i = 0; i < 48; i++) {
            types.append(i == 0 ? "" : ",").append((i + 1) % 4 == 0 ? "\"full_attention\"" : "\"linear_attention\"");
        }
        return types.append(']').toString();
    }

    /**
     * Meta's published sizes, 8.03 and 70.6 billion parameters (the model cards' "8B" and "70B", to the hundred million as
     * Hugging Face counts the checkpoints' tensors), from the shapes alone; a Llama's KV is 2 x layers x 8 KV heads x 128
     * x 2 bytes a token. Under either owner, and 3.3 as 3.1's shape.
     */
    @Test
    void theBuiltInLlamasHaveMetasParameterCountsAndKvSizes() {
        ModelProfile small = ModelProfile.forModel("meta-llama/Llama-3.1-8B-Instruct");
        assertThat(small.parameters()).isCloseTo(8.03e9, within(0.01e9));
        assertThat(small.activeParameters()).isEqualTo(small.parameters());
        assertThat(small.kvBytesPerToken()).isEqualTo(2.0 * 32 * 8 * 128 * 2);
        ModelProfile large = ModelProfile.forModel("meta-llama/Llama-3.3-70B-Instruct");
        assertThat(large.parameters()).isCloseTo(70.6e9, within(0.1e9));
        assertThat(large.kvBytesPerToken()).isEqualTo(2.0 * 80 * 8 * 128 * 2);
        assertThat(ModelProfile.forModel("meta-llama/Meta-Llama-3.1-70B-Instruct").parameters()).isEqualTo(large.parameters());
        assertThat(ModelProfile.forModel("deepseek-ai/DeepSeek-R1").parameters())
                .isEqualTo(ModelProfile.forModel("deepseek-ai/DeepSeek-R1-0528").parameters());
    }

    @Test
    void otherNamesHaveNoBuiltInProfile() {
        assertThatThrownBy(() -> ModelProfile.forModel("my-org/finetune")).hasMessageStartingWith(
                "no built-in profile of my-org/finetune; built in: deepseek-r1, deepseek-r1-0528, deepseek-v3, deepseek-v3-0324,"
                        + " deepseek-v3.2, deepseek-v3.2-exp, gemma-4-26b-a4b, gemma-4-26b-a4b-it, gemma-4-31b,"
                        + " gemma-4-31b-it, glm-4.5-air, glm-4.6, glm-4.6-fp8, glm-5, glm-5-fp8, glm-5.1, glm-5.1-fp8,"
                        + " gpt-oss-120b, gpt-oss-20b,"
                        + " llama-3.1-70b-instruct, llama-3.1-8b-instruct, llama-3.3-70b-instruct, meta-llama-3-8b-instruct");
        // the 2507 update has another context than the config built in for Qwen3-30B-A3B: not stood in by it
        assertThat(ModelProfile.builtIn("Qwen/Qwen3-30B-A3B-Instruct-2507")).isEmpty();
    }

    @Test
    void theMaxModelLengthDefaultsToTheModelsContextAndMayNotExceedIt() {
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of()).maxModelLen()).isEqualTo(40_960);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3.5-9B", List.of()).maxModelLen()).isEqualTo(262_144);
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--context-length=65536")))
                .hasMessage("--context-length 65536 is greater than the context SGLang derives from the config of"
                        + " Qwen/Qwen3-8B (40960: max_position_embeddings 40960); expected at most that, as the engine"
                        + " requires");
    }

    /**
     * Each engine derives a model's context from its config in its own way. Qwen3-8B's model card extends it to 131,072
     * tokens with YaRN by adding {@code "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
     * "original_max_position_embeddings": 32768}}: vLLM takes 32,768 x 4 (vllm-project/vllm@0052a5b8,
     * {@code vllm/config/model.py}, {@code _get_and_verify_max_len}), SGLang keeps 40,960, as it ignores the factor
     * of a scaling that names its original length (sgl-project/sglang@002fc100,
     * {@code python/sglang/srt/utils/hf_transformers_utils.py}, {@code get_context_length}). A linear scaling
     * without one multiplies both; Llama 3.1's {@code llama3} type neither; vLLM leaves Gemma 3's as stated; SGLang
     * takes its first length key ({@code max_sequence_length} before {@code max_position_embeddings}), vLLM the
     * smallest.
     */
    @Test
    void eachEngineDerivesTheContextFromTheConfigInItsOwnWay(@TempDir Path dir) throws java.io.IOException {
        String yarn = ModelConfigs.QWEN3_8B.substring(0, ModelConfigs.QWEN3_8B.length() - 1) + ",\"rope_scaling\":"
                + "{\"rope_type\":\"yarn\",\"factor\":4.0,\"original_max_position_embeddings\":32768}}";
        ModelProfile qwen = ModelProfile.fromConfig("Qwen/Qwen3-8B", yarn);
        assertThat(qwen.context().tokens(SimDialect.VLLM)).isEqualTo(131_072);
        assertThat(qwen.context().tokens(SimDialect.SGLANG)).isEqualTo(40_960);
        assertThat(qwen.context().rule(SimDialect.VLLM))
                .isEqualTo("rope_scaling yarn: original_max_position_embeddings 32768 x rope factor 4");
        // the run takes its engine's: vLLM starts at 131,072 tokens and allows them, SGLang refuses them
        java.nio.file.Files.writeString(dir.resolve("config.json"), yarn);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--hf-config-path=" + dir))
                .maxModelLen()).isEqualTo(131_072);
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B",
                List.of(SimParams.SIM_MODEL_CONFIG + "=" + dir, "--context-length=131072")))
                .hasMessageContaining("(40960: max_position_embeddings 40960)");

        String linear = yarn.replace("\"rope_type\":\"yarn\",\"factor\":4.0,\"original_max_position_embeddings\":32768",
                "\"type\":\"linear\",\"factor\":2.0");
        ContextLength both = ModelProfile.fromConfig("m", linear).context();
        assertThat(List.of(both.vllm(), both.sglang())).containsExactly(81_920, 81_920);
        ContextLength llama3 = ModelProfile.fromConfig("m", linear.replace("\"type\":\"linear\"",
                "\"rope_type\":\"llama3\"")).context();
        assertThat(List.of(llama3.vllm(), llama3.sglang())).containsExactly(40_960, 40_960);
        ContextLength gemma = ModelProfile.fromConfig("m", linear.replace("Qwen3ForCausalLM", "Gemma3ForCausalLM")
                .replace("\"factor\":2.0", "\"factor\":8.0")).context();
        assertThat(List.of(gemma.vllm(), gemma.sglang())).containsExactly(40_960, 327_680);
        ContextLength keys = ModelProfile.fromConfig("m", ModelConfigs.QWEN3_8B.replace("\"max_position_embeddings\":40960",
                "\"max_position_embeddings\":40960,\"max_sequence_length\":65536,\"seq_length\":32768")).context();
        assertThat(List.of(keys.vllm(), keys.sglang())).containsExactly(32_768, 65_536);
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", yarn.replace(",\"original_max_position_embeddings\":32768",
                ""))).hasMessageContaining("a yarn rope scaling without \"original_max_position_embeddings\"");
    }

    /**
     * A published config leaves out what equals its class's defaults, and the engines read those through transformers:
     * google/gemma-3-27b-it's text config (as NVIDIA/TensorRT-LLM's Gemma 3 test copies it, there with its layers cut to
     * 6 and its window to 4 "for testing", restored here to the published 62 and 1,024) names neither its vocabulary,
     * its context, its tied embeddings nor its pattern of five sliding layers to one full; Gemma3TextConfig gives them
     * (262,208, 131,072, tied, 6). Counted from the shape: 62 layers x (5376 x 128 x (2 x 32 + 2 x 16) + 3 x 5376 x
     * 21504) + 262,208 x 5376 once = 27.008e9 (the card's "27B", its 0.4B vision encoder not counted); 10 full layers
     * of 16 KV heads x 128 cache 81,920 bytes a token. vLLM keeps Gemma 3's 131,072-token context as stated; SGLang
     * multiplies it by the linear rope factor 8. Other classes' defaults: Qwen3's head dimension is 128 whatever the
     * width; a KV head count of null is one per head; transformers 5's alias for Qwen3-MoE's expert count reads the
     * same; gpt-oss without {@code layer_types} alternates, the first layer sliding.
     */
    @Test
    void whatAPublishedConfigLeavesOutIsItsClasssDefault() {
        String gemma = "{\"architectures\": [\"Gemma3ForConditionalGeneration\"], \"model_type\": \"gemma3\","
                + " \"text_config\": {\"head_dim\": 128, \"hidden_size\": 5376, \"intermediate_size\": 21504,"
                + " \"model_type\": \"gemma3_text\", \"num_attention_heads\": 32, \"num_hidden_layers\": 62,"
                + " \"num_key_value_heads\": 16, \"query_pre_attn_scalar\": 168,"
                + " \"rope_scaling\": {\"factor\": 8.0, \"rope_type\": \"linear\"}, \"sliding_window\": 1024},"
                + " \"torch_dtype\": \"bfloat16\", \"transformers_version\": \"4.50.0.dev0\"}";
        ModelProfile g = ModelProfile.fromConfig("google/gemma-3-27b-it", gemma);
        assertThat(g.parameters()).isCloseTo(27.008e9, within(0.001e9));
        assertThat(g.kvBytesPerToken()).isEqualTo(10 * 2 * 16 * 128 * 2.0);
        assertThat(g.window().tokens()).isEqualTo(1024);
        assertThat(g.window().kvBytesPerToken()).isEqualTo(52 * 2 * 16 * 128 * 2.0);
        assertThat(List.of(g.context().vllm(), g.context().sglang())).containsExactly(131_072, 1_048_576);
        // its SigLIP tower, as published ("vision_config": 27 layers of 1,152, MLP 4,304, 896-pixel images in
        // 14-pixel patches) and the projector: 0.423e9, so 27.43e9 in all, the model page's "27.4B"; the engines load it
        String vision = gemma.replace(", \"torch_dtype\"", ", \"vision_config\": {\"hidden_size\": 1152, \"image_size\": 896,"
                + " \"intermediate_size\": 4304, \"model_type\": \"siglip_vision_model\", \"num_attention_heads\": 16,"
                + " \"num_hidden_layers\": 27, \"patch_size\": 14, \"vision_use_head\": false}, \"torch_dtype\"");
        ModelProfile withVision = ModelProfile.fromConfig("google/gemma-3-27b-it", vision);
        assertThat(g.nonLanguageBytes()).isZero();
        assertThat(withVision.nonLanguageBytes() / 2).isCloseTo(0.423e9, within(0.001e9));
        assertThat(withVision.parameters() + withVision.nonLanguageBytes() / 2).isCloseTo(27.43e9, within(0.01e9));
        // Qwen3.5's, Qwen3-VL's tower (alibaba/InferSim's copy of Qwen3.5-35B-A3B's config: 27 layers of 1,152, MLP
        // 4,304, 16-pixel patches over 2 frames, 2,304 positions, 2 x 2 patches merged into 2,048): 3 x 2 x 16 x 16 x
        // 1152 + 1152 + 2304 x 1152 + 27 x 15,239,504 + (4608^2 + 4608 + 4608 x 2048 + 2048 + 2 x 1152) = 446,571,248;
        // with the 9B's 4,096-wide output 456.0e6, the "about 0.45e9" its built-in profile states
        assertThat(ModelProfile.builtIn("Qwen/Qwen3.5-35B-A3B").orElseThrow().nonLanguageBytes() / 2)
                .isEqualTo(446_571_248.0);

        String qwen = ModelConfigs.QWEN3_8B.replace("\"head_dim\":128,", "");
        assertThat(qwen).doesNotContain("head_dim");
        assertThat(ModelProfile.fromConfig("m", qwen)).isEqualTo(ModelProfile.fromConfig("m", ModelConfigs.QWEN3_8B));
        assertThat(ModelProfile.fromConfig("m", ModelConfigs.QWEN3_8B.replace("\"num_key_value_heads\":8",
                "\"num_key_value_heads\":null")).kvBytesPerToken()).isEqualTo(36 * 2 * 32 * 128 * 2.0);
        // (64 experts, not the class's 128: the count under the alias is the one read)
        String sixtyFour = ModelConfigs.QWEN3_30B_A3B.replace("\"num_experts\":128", "\"num_experts\":64");
        String alias = sixtyFour.replace("\"num_experts\"", "\"num_local_experts\"");
        assertThat(alias).contains("\"num_local_experts\":64");
        assertThat(ModelProfile.fromConfig("m", alias).experts().count()).isEqualTo(64);
        assertThat(ModelProfile.fromConfig("m", alias)).isEqualTo(ModelProfile.fromConfig("m", sixtyFour));
        String alternating = String.join(",", java.util.Collections.nCopies(12, "\"sliding_attention\",\"full_attention\""));
        String unlisted = ModelConfigs.GPT_OSS_20B.replace(",\"layer_types\":[" + alternating + "]", "");
        assertThat(unlisted).doesNotContain("layer_types");
        assertThat(ModelProfile.fromConfig("m", unlisted)).isEqualTo(ModelProfile.fromConfig("m", ModelConfigs.GPT_OSS_20B));
    }

    /**
     * Both engines serve a float32 checkpoint in 16 bits by default ({@code --dtype auto}: vLLM's
     * {@code _resolve_auto_dtype} "Downcast for float32 models", SGLang's {@code _get_and_verify_dtype} "we use float16
     * for float32 models"), so its weights take 2 bytes, not 4; {@code --dtype} asking for 16 bits is the same, and
     * 32-bit weights are said not to be modelled.
     */
    @Test
    void aFloat32CheckpointIsServedInSixteenBits() {
        String fp32 = ModelConfigs.QWEN25_7B_INSTRUCT.replace("\"torch_dtype\":\"bfloat16\"", "\"torch_dtype\":\"float32\"");
        assertThat(fp32).contains("float32");
        assertThat(ModelProfile.fromConfig("m", fp32)).isEqualTo(ModelProfile.fromConfig("m", ModelConfigs.QWEN25_7B_INSTRUCT));
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--dtype=bfloat16")).startLog())
                .noneMatch(line -> line.contains("ignores flag --dtype"));
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, "Qwen/Qwen3-8B", List.of("--dtype=float32")).startLog())
                .anyMatch(line -> line.startsWith("simulated engine ignores flag --dtype"));
    }

    /**
     * FP8 weights with a scale per 128 x 128 block are told apart from those with a scale per tensor or channel, since on
     * Hopper their products run slower ({@link StepCostModel#BLOCK_FP8_PRODUCT_READ_EFFICIENCY}): a native FP8 config
     * naming a {@code weight_block_size} (DeepSeek's, Qwen's, GLM-5's), compressed-tensors' {@code "strategy": "block"}
     * (llm-compressor's {@code FP8_BLOCK}); not {@code --quantization fp8}'s online weights nor a config without it.
     */
    @Test
    void fp8WeightsScaledPerBlockAreToldApartFromThoseScaledPerTensor() {
        String llama = ModelConfigs.LLAMA31_8B_INSTRUCT.substring(0, ModelConfigs.LLAMA31_8B_INSTRUCT.length() - 1);
        ModelProfile block = ModelProfile.fromConfig("m", llama
                + ",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]}}");
        ModelProfile tensor = ModelProfile.fromConfig("m", llama + ",\"quantization_config\":{\"quant_method\":\"fp8\"}}");
        assertThat(block.blockScaledFp8()).isTrue();
        assertThat(block.fp8Weights()).isTrue();
        assertThat(tensor.blockScaledFp8()).isFalse();
        assertThat(tensor.fp8Weights()).isTrue();
        // the same bytes either way: a scale per 16,384 weights adds nothing the twin counts
        assertThat(block.weightBytes()).isEqualTo(tensor.weightBytes());
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "meta-llama/Llama-3.1-8B-Instruct", List.of("--quantization=fp8"))
                .model().blockScaledFp8()).isFalse();
        String ct = llama + ",\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":"
                + "\"float-quantized\",\"config_groups\":{\"group_0\":{\"weights\":{\"num_bits\":8,\"type\":\"float\","
                + "\"strategy\":\"STRATEGY\",\"symmetric\":true,\"dynamic\":false,\"block_structure\":[128,128]},"
                + "\"input_activations\":{\"num_bits\":8,\"type\":\"float\",\"strategy\":\"group\",\"group_size\":128,"
                + "\"symmetric\":true,\"dynamic\":true},\"targets\":[\"Linear\"]}},\"ignore\":[\"lm_head\"]}}";
        assertThat(ModelProfile.fromConfig("m", ct.replace("STRATEGY", "block")).blockScaledFp8()).isTrue();
        assertThat(ModelProfile.fromConfig("m", ct.replace("STRATEGY", "channel")).blockScaledFp8()).isFalse();
        // Qwen's FP8 releases are block-scaled (their model cards), and so is GLM-5.1's
        assertThat(ModelProfile.forModel("Qwen/Qwen3-8B-FP8").blockScaledFp8()).isTrue();
        assertThat(ModelProfile.forModel("zai-org/GLM-5.1-FP8").blockScaledFp8()).isTrue();
        assertThat(ModelProfile.forModel("deepseek-ai/DeepSeek-R1-0528").blockScaledFp8()).isTrue();
    }

    /**
     * A block-scaled FP8 checkpoint does not start where each GPU's slice of a routed expert is not a whole number of
     * 128-wide blocks, as vLLM and SGLang refuse it ("The output_size of gate's and up's weight = 192 is not divisible by
     * weight quantization block_n = 128.", quoted by users of both); expert parallelism, keeping experts whole, starts.
     * Qwen3-235B-A22B's experts are 1,536 wide: whole blocks on 1, 2, 3, 4, 6 and 12 slices, not on 8.
     */
    @Test
    void aBlockScaledCheckpointDoesNotStartWhereItsExpertsSliceIntoPartBlocks() {
        String fp8 = "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8";
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, fp8, List.of("--tensor-parallel-size=8"),
                GpuProfile.named("h200")))
                .hasMessageContaining("the engine would not start at tensor-parallel size 8")
                .hasMessageContaining("routed experts are 1,536 wide, 192 on each of 8 slices")
                .hasMessageContaining("\"The output_size of gate's and up's weight = 192 is not divisible by weight"
                        + " quantization block_n = 128.\"")
                .hasMessageContaining("(1, 2, 3, 4, 6, 12)").hasMessageContaining("--enable-expert-parallel");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.SGLANG, fp8, List.of("--tp-size=8"),
                GpuProfile.named("h200"))).hasMessageContaining("weight = 192 is not divisible");
        // four slices of 384, whole experts, or SGLang's experts over two groups of four: they start
        for (List<String> flags : List.of(List.of("--tensor-parallel-size=4"),
                List.of("--tensor-parallel-size=8", "--enable-expert-parallel"))) {
            assertThat(SimParams.fromFlags(SimDialect.VLLM, fp8, flags, GpuProfile.named("h200")).tensorParallelSize())
                    .isPositive();
        }
        assertThat(SimParams.fromFlags(SimDialect.SGLANG, fp8, List.of("--tp-size=8", "--ep-size=2"),
                GpuProfile.named("h200")).expertParallelSize()).isEqualTo(2);
        // the 16-bit model, and FP8 with a scale per tensor, split anywhere the heads allow
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=8"), GpuProfile.named("h200")).tensorParallelSize()).isEqualTo(8);
        assertThat(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-235B-A22B-Instruct-2507",
                List.of("--tensor-parallel-size=8", "--quantization=fp8"), GpuProfile.named("h200"))
                .tensorParallelSize()).isEqualTo(8);
        // blocks of another size are not modelled
        String llama = ModelConfigs.LLAMA31_8B_INSTRUCT.substring(0, ModelConfigs.LLAMA31_8B_INSTRUCT.length() - 1);
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", llama
                + ",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[64,64]}}"))
                .hasMessageContaining("FP8 in blocks of [64,64] (modelled: [128,128]");
    }

    /**
     * A compressed-tensors checkpoint of FP8 weights and FP8 activations on every linear layer reads as the FP8
     * checkpoint it is: the {@code FP8_DYNAMIC} preset's group (vllm-project/compressed-tensors {@code quant_scheme.py}:
     * weights 8-bit float per channel, symmetric, static; input activations 8-bit float per token, dynamic), on
     * {@code ["Linear"]}, the output head left out, as llm-compressor writes it into config.json. vLLM runs it as FP8 W8A8
     * ({@code _is_fp8_w8a8}). Integer weights with integer activations, FP8 weights beside 16-bit activations, a group
     * on some layers only and attention left unquantised are refused, each by what it is.
     */
    @Test
    void aCompressedTensorsFp8CheckpointIsReadAsFp8AndOtherSchemesAreRefused() {
        String weights = "\"weights\":{\"num_bits\":8,\"type\":\"float\",\"strategy\":\"channel\",\"symmetric\":true,"
                + "\"dynamic\":false}";
        String activations = "\"input_activations\":{\"num_bits\":8,\"type\":\"float\",\"strategy\":\"token\","
                + "\"symmetric\":true,\"dynamic\":true}";
        java.util.function.BiFunction<String, String, String> ct = (group, ignore) -> ModelConfigs.LLAMA31_8B_INSTRUCT
                .substring(0, ModelConfigs.LLAMA31_8B_INSTRUCT.length() - 1) + ",\"quantization_config\":{"
                + "\"quant_method\":\"compressed-tensors\",\"format\":\"float-quantized\",\"quantization_status\":"
                + "\"compressed\",\"config_groups\":{\"group_0\":{" + group + "}},\"ignore\":[" + ignore + "]}}";
        String fp8Dynamic = ct.apply(weights + "," + activations + ",\"targets\":[\"Linear\"]", "\"lm_head\"");
        ModelProfile bf16 = ModelProfile.fromConfig("m", ModelConfigs.LLAMA31_8B_INSTRUCT);
        assertThat(ModelProfile.fromConfig("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", fp8Dynamic))
                .isEqualTo(ModelProfile.fromConfig("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic",
                        ModelConfigs.LLAMA31_8B_INSTRUCT).withFp8Weights());
        assertThat(ModelProfile.fromConfig("m", fp8Dynamic).bytesPerParameter()).isEqualTo(bf16.bytesPerParameter() / 2);
        // a mixture of experts' routers left in 16 bits, as llm-compressor's MoE recipes write them, read the same
        assertThat(ModelProfile.fromConfig("m", ct.apply(weights + "," + activations + ",\"targets\":[\"Linear\"]",
                "\"lm_head\",\"re:.*mlp.gate$\""))).isEqualTo(ModelProfile.fromConfig("m", fp8Dynamic));
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", ct.apply(weights.replace("\"float\"", "\"int\"") + ","
                + activations.replace("\"float\"", "\"int\"") + ",\"targets\":[\"Linear\"]", "\"lm_head\"")))
                .hasMessageContaining("compressed-tensors group group_0 with weights");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", ct.apply(weights + ",\"input_activations\":null,"
                + "\"targets\":[\"Linear\"]", "\"lm_head\"")))
                .hasMessageContaining("FP8 weights beside 16-bit activations are not");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", ct.apply(weights + "," + activations
                + ",\"targets\":[\"re:.*self_attn.*\"]", "\"lm_head\"")))
                .hasMessageContaining("targeting [\"re:.*self_attn.*\"]");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", ct.apply(weights + "," + activations
                + ",\"targets\":[\"Linear\"]", "\"lm_head\",\"re:.*self_attn.*\"")))
                .hasMessageContaining("leaving the attention in 16 bits (modelled: FP8 on every linear layer");
    }

    @Test
    void aBadConfigIsNamedWithTheFieldAndWhatWasExpected(@TempDir Path dir) {
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", "{\"model_type\":\"llama\",\"hidden_size\":4096}"))
                .hasMessage("config.json of m: \"num_hidden_layers\" must be a whole number >= 1, got nothing");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", QWEN3_NEXT + ",\"index_topk\":2048}"))
                .hasMessageStartingWith("config.json of m is not JSON: Unexpected character (','");
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", QWEN3_NEXT.replace("\"full_attention_interval\":4",
                "\"layer_types\":[\"linear_attention\",\"sliding\"]")))
                .hasMessageContaining("\"layer_types\" must list one type per layer (48)");
        assertThatThrownBy(() -> SimParams.fromFlags(SimDialect.VLLM, "m", List.of("--hf-config-path=" + dir)))
                .hasMessageStartingWith("config.json of m: cannot read " + dir.resolve("config.json"));
    }

    /**
     * Mistral Small 3.1 (24B), from the defaults transformers' {@code Mistral3Config} gives its checkpoint
     * (mistralai/Mistral-Small-3.1-24B-Instruct-2503): a Mistral language model of 40 layers, 5,120 wide, MLP 32,768, 32
     * heads and 8 KV heads of 128, a vocabulary of 131,072 untied, no sliding window; a Pixtral tower of 24 layers, 1,024
     * wide, MLP 4,096, 14-pixel patches; patches merged 2 x 2, no projector bias. Counted by hand: the language model
     * 2 x 131,072 x 5,120 + 40 x (5,120 x 8,192 + 5,120 x 2,048 + 3 x 5,120 x 32,768) = 23,571,988,480; the tower
     * 3 x 14 x 14 x 1,024 + 1,024 + 24 x (4 x 1,024^2 + 3 x 1,024 x 4,096 + 2 x 1,024) and the projector 1,024 + 4 x
     * 1,024^2 + 1,024 x 5,120 + 5,120^2: 438,958,080; 24.01e9 in all, the name's 24B.
     */
    @Test
    void mistral3ReadsItsLanguageModelAndItsPixtralTower() {
        String config = "{\"architectures\": [\"Mistral3ForConditionalGeneration\"], \"model_type\": \"mistral3\","
                + " \"image_token_index\": 10, \"multimodal_projector_bias\": false, \"projector_hidden_act\": \"gelu\","
                + " \"spatial_merge_size\": 2, \"vision_feature_layer\": -1, \"torch_dtype\": \"bfloat16\","
                + " \"text_config\": {\"head_dim\": 128, \"hidden_act\": \"silu\", \"hidden_size\": 5120,"
                + " \"intermediate_size\": 32768, \"max_position_embeddings\": 131072, \"model_type\": \"mistral\","
                + " \"num_attention_heads\": 32, \"num_hidden_layers\": 40, \"num_key_value_heads\": 8,"
                + " \"rms_norm_eps\": 1e-05, \"rope_theta\": 1000000000.0, \"sliding_window\": null,"
                + " \"vocab_size\": 131072},"
                + " \"vision_config\": {\"head_dim\": 64, \"hidden_act\": \"gelu\", \"hidden_size\": 1024,"
                + " \"image_size\": 1540, \"intermediate_size\": 4096, \"model_type\": \"pixtral\","
                + " \"num_attention_heads\": 16, \"num_hidden_layers\": 24, \"patch_size\": 14}}";
        ModelProfile m = ModelProfile.fromConfig("mistralai/Mistral-Small-3.1-24B-Instruct-2503", config);
        assertThat(m.parameters()).isEqualTo(23_571_988_480.0);
        assertThat(m.nonLanguageBytes() / 2).isEqualTo(438_958_080.0);
        assertThat(m.window()).isEqualTo(ModelProfile.Window.NONE);
        assertThat(m.kvBytesPerToken()).isEqualTo(40 * 2 * 8 * 128 * 2.0);
        assertThat(List.of(m.context().vllm(), m.context().sglang())).containsExactly(131_072, 131_072);
        // a projector with bias adds one per output of each of its two layers
        ModelProfile biased = ModelProfile.fromConfig("m", config.replace("\"multimodal_projector_bias\": false",
                "\"multimodal_projector_bias\": true"));
        assertThat(biased.nonLanguageBytes() / 2 - 438_958_080.0).isEqualTo(2 * 5120.0);
        // Ministral 3 ships in the same class with a text model of its own, whose defaults were not read
        assertThatThrownBy(() -> ModelProfile.fromConfig("mistralai/Ministral-3-8B-Instruct-2512",
                config.replace("\"model_type\": \"mistral\"", "\"model_type\": \"ministral3\"")))
                .hasMessageContaining("\"text_config\" names model_type ministral3, whose class defaults");
        // a tower with no width is no tower: refused, naming the key set, rather than counted as 0 parameters
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", config.replace("\"hidden_size\": 1024", "\"hidden_size\": 0")))
                .hasMessageContaining("config.json of m: \"vision_config\"")
                .hasMessageContaining("is not a vision tower's shape; expected whole numbers >= 1");
    }

    /**
     * GLM-4-0414's class ({@code Glm4ForCausalLM}) fills what its config leaves out from {@code Glm4Config}: two KV
     * heads of 128 values (the reader's own fallback would be one per query head), a vocabulary of 151,552, untied,
     * a context of 131,072. The class's own shape, GLM-4-9B's (40 layers, 4,096 wide, MLP 13,696, 32 heads), counted by
     * hand: 2 x 151,552 x 4,096 + 40 x (4,096 x 4,096 x 2 + 4,096 x 256 x 2 + 3 x 4,096 x 13,696) = 9,399,435,264.
     */
    @Test
    void glm4ReadsItsClasssDefaults() {
        ModelProfile m = ModelProfile.fromConfig("zai-org/GLM-4-9B-0414", "{\"architectures\": [\"Glm4ForCausalLM\"],"
                + " \"hidden_size\": 4096, \"intermediate_size\": 13696, \"num_attention_heads\": 32,"
                + " \"num_hidden_layers\": 40, \"torch_dtype\": \"bfloat16\"}");
        assertThat(m.parameters()).isEqualTo(9_399_435_264.0);
        assertThat(m.kvBytesPerToken()).isEqualTo(40 * 2 * 2 * 128 * 2.0);
        assertThat(m.embeddings().tied()).isFalse();
        assertThat(m.context().vllm()).isEqualTo(131_072);
    }

    /**
     * Qwen3-VL fills what a config leaves out from its text classes ({@code Qwen3VLTextConfig}: head dimension 128, as
     * many KV heads as heads, vocabulary 151,936; {@code Qwen3VLMoeTextConfig}: 60 experts of 1,408 of which 4 a token)
     * and counts the tower it shares with Qwen3.5. Qwen3-VL-8B's shape (36 layers, 4,096 wide, MLP 12,288, 32 heads, 8
     * KV heads) with its tower (27 layers of 1,152, MLP 4,304, 16-pixel patches over 2 frames, 2,304 positions, 2 x 2
     * patches merged into 4,096, three deepstack mergers), counted by hand: 2 x 151,936 x 4,096 + 36 x (4,096 x 8,192 +
     * 4,096 x 2,048 + 3 x 4,096 x 12,288) = 8,190,427,136 in the language model; the tower 3 x 2 x 16 x 16 x 1,152 +
     * 1,152 + 2,304 x 1,152 + 27 x 15,239,504 (a layer's four projections and MLP with biases, two norms) + 40,116,736
     * (the merger: 4,608^2 + 4,608 + 4,608 x 4,096 + 4,096) + 2 x 1,152 (its norm) + 3 x (40,116,736 + 2 x 4,608) =
     * 576,388,336.
     */
    @Test
    void qwen3VlReadsItsTextClassesDefaultsAndItsTower() {
        String tower = "\"vision_config\": {\"depth\": 27, \"hidden_size\": 1152, \"intermediate_size\": 4304,"
                + " \"num_heads\": 16, \"in_channels\": 3, \"patch_size\": 16, \"spatial_merge_size\": 2,"
                + " \"temporal_patch_size\": 2, \"out_hidden_size\": 4096, \"num_position_embeddings\": 2304,"
                + " \"deepstack_visual_indexes\": [8, 16, 24]}";
        ModelProfile dense = ModelProfile.fromConfig("Qwen/Qwen3-VL-8B-Instruct", "{\"architectures\":"
                + " [\"Qwen3VLForConditionalGeneration\"], \"model_type\": \"qwen3_vl\", \"tie_word_embeddings\": false,"
                + " \"text_config\": {\"hidden_size\": 4096, \"intermediate_size\": 12288, \"num_attention_heads\": 32,"
                + " \"num_hidden_layers\": 36, \"num_key_value_heads\": 8, \"max_position_embeddings\": 262144,"
                + " \"torch_dtype\": \"bfloat16\"}, " + tower + "}");
        assertThat(dense.parameters()).isEqualTo(8_190_427_136.0);
        assertThat(dense.nonLanguageBytes() / 2).isEqualTo(576_388_336.0);
        assertThat(dense.kvBytesPerToken()).isEqualTo(36 * 2 * 8 * 128 * 2.0);
        assertThat(dense.context().vllm()).isEqualTo(262_144);
        // a text config that names neither KV heads nor head dimension: 32 KV heads of 128, as the class says
        ModelProfile defaults = ModelProfile.fromConfig("m", "{\"architectures\": [\"Qwen3VLForConditionalGeneration\"],"
                + " \"text_config\": {\"hidden_size\": 2560, \"intermediate_size\": 9728, \"num_attention_heads\": 32,"
                + " \"num_hidden_layers\": 36}}");
        assertThat(defaults.kvBytesPerToken()).isEqualTo(36 * 2 * 32 * 128 * 2.0);

        ModelProfile moe = ModelProfile.fromConfig("m", "{\"architectures\": [\"Qwen3VLMoeForConditionalGeneration\"],"
                + " \"text_config\": {\"hidden_size\": 2048, \"intermediate_size\": 6144, \"num_attention_heads\": 32,"
                + " \"num_hidden_layers\": 48, \"num_key_value_heads\": 4, \"head_dim\": 128}}");
        assertThat(moe.experts().count()).isEqualTo(60);
        assertThat(moe.experts().perToken()).isEqualTo(4);
        assertThat(moe.experts().parameters()).isEqualTo(3 * 2048 * 1408.0);
    }

    /**
     * Qwen2.5-VL-7B-Instruct's config as first published (its text keys at the top level, the tower's channels as
     * {@code in_chans}), counted by hand: the language model 2 x 152,064 x 3,584 + 28 x (3,584 x 3,584 x 2 + 3,584 x
     * 512 x 2 + 3 x 3,584 x 18,944) = 7,615,283,200; the tower 3 x 2 x 14 x 14 x 1,280 + 32 x (4 x 1,280^2 + 3 x 1,280
     * x 3,420 + 2 x 3,420 + 7 x 1,280) + 1,280 + 5,120^2 + 5,120 + 5,120 x 3,584 + 3,584 = 676,550,144 (each layer's
     * two norms, q/k/v and output with biases, gated MLP with biases; the merger's norm and two layers); 8.292e9 in
     * all, the model page's 8.29B.
     */
    @Test
    void qwen25VlReadsItsTopLevelTextAndItsTower() {
        ModelProfile m = ModelProfile.fromConfig("Qwen/Qwen2.5-VL-7B-Instruct", "{\"architectures\":"
                + " [\"Qwen2_5_VLForConditionalGeneration\"], \"hidden_size\": 3584, \"intermediate_size\": 18944,"
                + " \"max_position_embeddings\": 128000, \"max_window_layers\": 28, \"model_type\": \"qwen2_5_vl\","
                + " \"num_attention_heads\": 28, \"num_hidden_layers\": 28, \"num_key_value_heads\": 4,"
                + " \"rope_scaling\": {\"type\": \"mrope\", \"mrope_section\": [16, 24, 24]}, \"sliding_window\": 32768,"
                + " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\", \"use_sliding_window\": false,"
                + " \"vocab_size\": 152064, \"vision_config\": {\"depth\": 32, \"hidden_act\": \"silu\","
                + " \"hidden_size\": 1280, \"intermediate_size\": 3420, \"num_heads\": 16, \"in_chans\": 3,"
                + " \"out_hidden_size\": 3584, \"patch_size\": 14, \"spatial_merge_size\": 2, \"spatial_patch_size\": 14,"
                + " \"window_size\": 112, \"fullatt_block_indexes\": [7, 15, 23, 31], \"tokens_per_second\": 2,"
                + " \"temporal_patch_size\": 2}}");
        assertThat(m.parameters()).isEqualTo(7_615_283_200.0);
        assertThat(m.nonLanguageBytes() / 2).isEqualTo(676_550_144.0);
        assertThat(m.window()).isEqualTo(ModelProfile.Window.NONE);
        assertThat(m.kvBytesPerToken()).isEqualTo(28 * 2 * 4 * 128 * 2.0);
        assertThat(List.of(m.context().vllm(), m.context().sglang())).containsExactly(128_000, 128_000);
        assertThatThrownBy(() -> ModelProfile.fromConfig("m", "{\"architectures\": [\"Qwen2_5_VLForConditionalGeneration\"],"
                + " \"hidden_size\": 3584, \"intermediate_size\": 18944, \"num_attention_heads\": 28,"
                + " \"num_hidden_layers\": 28}")).hasMessageContaining("no \"num_key_value_heads\", whose default");
    }

    /**
     * DeepSeek-V2-Lite's config as published, against its model card ("Total Params 15.7B, Activated Params 2.4B"; the
     * card leaves out the input embeddings, 102,400 x 2,048): 27 layers of latent attention without a low-rank query
     * (its {@code q_lora_rank} is null), the first dense, the others 64 routed experts of which 6 a token and 2 shared.
     * A token's cache: 27 layers x (512 + 64) values x 2 bytes.
     */
    @Test
    void deepseekV2LiteReadsAsItsCardSays() {
        ModelProfile m = ModelProfile.fromConfig("deepseek-ai/DeepSeek-V2-Lite", "{\"architectures\":"
                + " [\"DeepseekV2ForCausalLM\"], \"first_k_dense_replace\": 1, \"hidden_size\": 2048,"
                + " \"intermediate_size\": 10944, \"kv_lora_rank\": 512, \"max_position_embeddings\": 163840,"
                + " \"model_type\": \"deepseek_v2\", \"moe_intermediate_size\": 1408, \"moe_layer_freq\": 1,"
                + " \"n_group\": 1, \"n_routed_experts\": 64, \"n_shared_experts\": 2, \"num_attention_heads\": 16,"
                + " \"num_experts_per_tok\": 6, \"num_hidden_layers\": 27, \"num_key_value_heads\": 16,"
                + " \"q_lora_rank\": null, \"qk_nope_head_dim\": 128, \"qk_rope_head_dim\": 64,"
                + " \"rope_scaling\": {\"beta_fast\": 32, \"beta_slow\": 1, \"factor\": 40, \"mscale\": 0.707,"
                + " \"mscale_all_dim\": 0.707, \"original_max_position_embeddings\": 4096, \"type\": \"yarn\"},"
                + " \"tie_word_embeddings\": false, \"topk_method\": \"greedy\", \"torch_dtype\": \"bfloat16\","
                + " \"v_head_dim\": 128, \"vocab_size\": 102400}");
        assertThat(m.parameters()).isCloseTo(15.7e9, within(0.05e9));
        assertThat(m.activeParameters() - 102_400.0 * 2048).isCloseTo(2.4e9, within(0.1e9));
        assertThat(m.kvBytesPerToken()).isEqualTo(27 * (512 + 64) * 2.0);
        assertThat(m.experts().count()).isEqualTo(64);
        assertThat(m.experts().layers()).isEqualTo(26);
        assertThat(List.of(m.context().vllm(), m.context().sglang())).containsExactly(163_840, 163_840);
    }
}
