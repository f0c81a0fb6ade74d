package io.servebench.sim;

/** Published model configs for tests of the simulated engine's model lookup, here and in the harness's tests. */
public final class ModelLookupFixtures {

    /**
     * meta-llama/Llama-3.1-70B-Instruct's config.json as published on its model page (the fields the simulated engine
     * reads), whose model card gives 70.6B parameters.
     */
    public static final String LLAMA_31_70B = """
            {"architectures": ["LlamaForCausalLM"], "hidden_size": 8192, "intermediate_size": 28672,
             "max_position_embeddings": 131072, "model_type": "llama", "num_attention_heads": 64,
             "num_hidden_layers": 80, "num_key_value_heads": 8, "rope_theta": 500000.0, "tie_word_embeddings": false,
             "torch_dtype": "bfloat16", "vocab_size": 128256}
            """;

    private ModelLookupFixtures() {
    }
}
