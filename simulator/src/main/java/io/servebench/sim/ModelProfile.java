package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What the timing model needs to know about a model.
 *
 * @param name                  the model id served (e.g. {@code Qwen/Qwen3.5-9B})
 * @param parameters            language-model parameters, all read once per forward step
 * @param activeParameters      of which one token goes through (all of them for a dense model, the routed
 *                              experts' share for a mixture of experts): the FLOPs per token are twice this
 * @param bytesPerParameter     bytes per weight (2 for bf16)
 * @param kvBytesPerToken       KV-cache bytes one token of context occupies, summed over the attention layers
 * @param stateBytesPerSequence fixed per-sequence state (linear-attention / SSM layers), read every step
 *                              for every running sequence; 0 for a pure-attention model
 * @param nonLanguageBytes      weights (and their reserved working memory) that only multimodal input uses,
 *                              e.g. a vision encoder; freed by {@code --language-model-only}
 * @param maxPositionEmbeddings the model's native context, tokens: the engines' default max model length
 * @param draftFraction         cost of one draft token of the model's native multi-token-prediction (MTP) head,
 *                              as a fraction of one full forward step of the main model
 * @param hiddenSize            the width of the residual stream: with tensor parallelism, each layer all-reduces
 *                              {@code hiddenSize} values per token twice (after attention and after the MLP)
 * @param layers                decoder layers
 */
public record ModelProfile(
        String name,
        double parameters,
        double activeParameters,
        double bytesPerParameter,
        double kvBytesPerToken,
        double stateBytesPerSequence,
        double nonLanguageBytes,
        int maxPositionEmbeddings,
        double draftFraction,
        int hiddenSize,
        int layers) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ModelProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("model name must not be blank");
        }
        requirePositive("parameters", parameters);
        requirePositive("activeParameters", activeParameters);
        if (activeParameters > parameters) {
            throw new IllegalArgumentException("activeParameters (" + activeParameters + ") must not exceed parameters ("
                    + parameters + ")");
        }
        requirePositive("bytesPerParameter", bytesPerParameter);
        requirePositive("kvBytesPerToken", kvBytesPerToken);
        if (hiddenSize < 1 || layers < 1) {
            throw new IllegalArgumentException("hiddenSize and layers must be >= 1, got " + hiddenSize + " and " + layers);
        }
        if (maxPositionEmbeddings < 2) {
            throw new IllegalArgumentException("maxPositionEmbeddings must be >= 2, got " + maxPositionEmbeddings);
        }
        if (stateBytesPerSequence < 0 || nonLanguageBytes < 0 || draftFraction < 0) {
            throw new IllegalArgumentException("stateBytesPerSequence, nonLanguageBytes and draftFraction must be >= 0, got "
                    + stateBytesPerSequence + ", " + nonLanguageBytes + ", " + draftFraction);
        }
    }

    /**
     * Qwen3.5-9B in bf16, the reference study's model: 9e9 parameters; 32 layers of which every fourth
     * (8) is full attention with 4 KV heads of dimension 256, so a token of context costs
     * 2 (K and V) x 8 x 4 x 256 x 2 B = 32 KiB; the other 24 are Gated DeltaNet layers whose recurrent
     * state (32 value heads x 128 x 128, fp32) is about 48 MiB per sequence; a vision encoder of about
     * 0.45e9 parameters plus its encoder cache, about 2 GiB; an MTP head of one decoder layer (about
     * 0.25e9 parameters) that reuses the output projection (151,936 x 4096, as in the Qwen3 family, 0.62e9),
     * so a draft token reads about 0.87e9 / 9e9 = 0.1 of the weights.
     *
     * @param name the model id to report (the study's model name; the profile's numbers do not change)
     */
    public static ModelProfile qwen35_9b(String name) {
        return new ModelProfile(name, 9e9, 9e9, 2, 2.0 * 8 * 4 * 256 * 2, 24.0 * 32 * 128 * 128 * 4,
                2.0 * 1024 * 1024 * 1024, 262_144, 0.87e9 / 9e9, 4096, 32);
    }

    /**
     * The profile for a served model name: {@code Qwen3-8B} and {@code Qwen3-30B-A3B} (from their published
     * {@code config.json}, see {@link #fromConfig}) by name, any other model as {@link #qwen35_9b Qwen3.5-9B}.
     */
    public static ModelProfile forModel(String name) {
        // the repository's name alone: the 2507 updates and the base models have other contexts
        String n = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        if (n.equals("qwen3-30b-a3b")) {
            return fromConfig(name, QWEN3_30B_A3B);
        }
        if (n.equals("qwen3-8b")) {
            return fromConfig(name, QWEN3_8B);
        }
        return qwen35_9b(name);
    }

    /** Qwen3-8B's {@code config.json}, the fields the profile reads (huggingface.co/Qwen/Qwen3-8B). */
    static final String QWEN3_8B = "{\"hidden_size\":4096,\"num_hidden_layers\":36,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":12288,\"vocab_size\":151936,"
            + "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"max_position_embeddings\":40960}";
    /** Qwen3-30B-A3B's {@code config.json}, the fields the profile reads (huggingface.co/Qwen/Qwen3-30B-A3B). */
    static final String QWEN3_30B_A3B = "{\"hidden_size\":2048,\"num_hidden_layers\":48,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":4,\"head_dim\":128,\"intermediate_size\":6144,\"moe_intermediate_size\":768,"
            + "\"num_experts\":128,\"num_experts_per_tok\":8,\"decoder_sparse_step\":1,\"mlp_only_layers\":[],"
            + "\"vocab_size\":151936,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
            + "\"max_position_embeddings\":40960}";

    /**
     * A profile from a Hugging Face {@code config.json} of a decoder (Llama, Qwen2/3, Mistral, their
     * mixture-of-experts forms: Qwen2/3-MoE, Mixtral; and hybrids of full and linear attention such as
     * Qwen3-Next and Qwen3.5). Parameters are counted from the shapes: embeddings and, unless tied, the output
     * head; per full-attention layer the q, k, v and o projections (and, in the Qwen hybrids, the output gate,
     * a second q-sized projection); per linear-attention (Gated DeltaNet) layer its q/k/v/z input projection,
     * the per-head decay and beta, the causal convolution and the output projection; per layer a gated MLP
     * (3 x hidden x intermediate) or, in a sparse layer, every expert's MLP plus the router (and a shared expert
     * where there is one), of which the routed {@code num_experts_per_tok} are active. Norms and biases are left
     * out (under 0.1%). A token of context costs 2 (K and V) x full-attention layers x KV heads x head dimension
     * x bytes; a sequence holds, per linear-attention layer, its recurrent state (value heads x key dimension x
     * value dimension, fp32) and its convolution window.
     *
     * @param name the model id to report
     * @param json the file's text; a {@code text_config} object inside it is read instead when present
     * @throws IllegalArgumentException naming the field that is missing or not what was expected
     */
    public static ModelProfile fromConfig(String name, String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("config.json of " + name + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("config.json of " + name + ": expected a JSON object");
        }
        JsonNode c = root.path("text_config").isObject() ? root.get("text_config") : root;
        double hidden = count(c, name, "hidden_size");
        double layers = count(c, name, "num_hidden_layers");
        double heads = count(c, name, "num_attention_heads");
        double kvHeads = c.has("num_key_value_heads") ? count(c, name, "num_key_value_heads") : heads;
        double headDim = c.has("head_dim") ? count(c, name, "head_dim") : hidden / heads;
        double vocab = count(c, name, "vocab_size");
        boolean tied = c.path("tie_word_embeddings").asBoolean(false);
        double experts = c.has("num_experts") ? count(c, name, "num_experts")
                : c.has("num_local_experts") ? count(c, name, "num_local_experts") : 0;
        double embeddings = vocab * hidden * (tied ? 1 : 2);
        boolean[] linear = linearLayers(c, name, (int) layers);
        int linearLayers = 0;
        for (boolean l : linear) {
            linearLayers += l ? 1 : 0;
        }
        int fullLayers = (int) layers - linearLayers;
        // the Qwen hybrids gate their full attention's output: a second query-sized projection
        boolean outputGate = c.path("attn_output_gate").asBoolean(linearLayers > 0);
        double attention = hidden * heads * headDim * (outputGate ? 3 : 2) + hidden * kvHeads * headDim * 2;
        double linearAttention = 0;
        double statePerSequence = 0;
        if (linearLayers > 0) {
            double keyDim = count(c, name, "linear_num_key_heads") * count(c, name, "linear_key_head_dim");
            double valueHeads = count(c, name, "linear_num_value_heads");
            double valueDim = valueHeads * count(c, name, "linear_value_head_dim");
            double kernel = count(c, name, "linear_conv_kernel_dim");
            // Gated DeltaNet: q, k, v and the gate z in, the decay and beta per value head, a causal conv, out
            linearAttention = hidden * (2 * keyDim + 2 * valueDim) + hidden * 2 * valueHeads
                    + (2 * keyDim + valueDim) * kernel + valueDim * hidden;
            // per sequence and layer: the recurrent state (value heads x key dim x value dim, fp32) and the conv window
            statePerSequence = linearLayers * (valueHeads * count(c, name, "linear_key_head_dim")
                    * count(c, name, "linear_value_head_dim") * 4 + (kernel - 1) * (2 * keyDim + valueDim) * 2);
        }
        int sparseStep = experts > 0 && c.has("decoder_sparse_step") ? (int) count(c, name, "decoder_sparse_step") : 1;
        Set<Integer> denseOnly = new HashSet<>();
        c.path("mlp_only_layers").forEach(n -> denseOnly.add(n.asInt()));
        int sparseLayers = 0;
        for (int layer = 0; layer < (int) layers; layer++) {
            if (experts > 0 && !denseOnly.contains(layer) && (layer + 1) % sparseStep == 0) {
                sparseLayers++;
            }
        }
        int denseLayers = (int) layers - sparseLayers;
        // each kind of MLP is read from the config only when some layer has it
        double denseMlp = denseLayers == 0 ? 0 : 3 * hidden * count(c, name, "intermediate_size");
        double sparseMlp = 0;
        double activeSparseMlp = 0;
        if (sparseLayers > 0) {
            double expert = 3 * hidden * count(c, name, c.has("moe_intermediate_size") ? "moe_intermediate_size"
                    : "intermediate_size");
            double shared = c.has("shared_expert_intermediate_size")
                    ? 3 * hidden * count(c, name, "shared_expert_intermediate_size") : 0;
            double router = hidden * experts;
            sparseMlp = experts * expert + shared + router;
            activeSparseMlp = count(c, name, "num_experts_per_tok") * expert + shared + router;
        }
        double mixers = fullLayers * attention + linearLayers * linearAttention;
        double total = embeddings + mixers + denseLayers * denseMlp + sparseLayers * sparseMlp;
        double active = embeddings + mixers + denseLayers * denseMlp + sparseLayers * activeSparseMlp;
        double bytes = bytesPerParameter(c, name);
        return new ModelProfile(name, total, active, bytes, 2 * fullLayers * kvHeads * headDim * bytes, statePerSequence,
                0, (int) count(c, name, "max_position_embeddings"), 1.0 / layers, (int) hidden, (int) layers);
    }

    /**
     * Which layers are linear-attention (Gated DeltaNet) layers: {@code layer_types} when given
     * ({@code "linear_attention"} / {@code "full_attention"}), else every layer but each
     * {@code full_attention_interval}-th; none for a model with neither.
     */
    private static boolean[] linearLayers(JsonNode c, String name, int layers) {
        boolean[] linear = new boolean[layers];
        JsonNode types = c.get("layer_types");
        if (types != null && !types.isNull()) {
            if (!types.isArray() || types.size() != layers) {
                throw new IllegalArgumentException("config.json of " + name + ": \"layer_types\" must list one type per"
                        + " layer (" + layers + "), got " + types);
            }
            for (int i = 0; i < layers; i++) {
                String type = types.get(i).asText();
                if (!type.equals("linear_attention") && !type.equals("full_attention")) {
                    throw new IllegalArgumentException("config.json of " + name + ": layer_types[" + i + "] is \"" + type
                            + "\"; expected \"linear_attention\" or \"full_attention\"");
                }
                linear[i] = type.equals("linear_attention");
            }
        } else if (c.has("full_attention_interval")) {
            int interval = (int) count(c, name, "full_attention_interval");
            for (int i = 0; i < layers; i++) {
                linear[i] = (i + 1) % interval != 0;
            }
        }
        return linear;
    }

    private static double count(JsonNode c, String name, String field) {
        JsonNode v = c.get(field);
        if (v == null || !v.canConvertToLong() || v.asLong() < 1) {
            throw new IllegalArgumentException("config.json of " + name + ": \"" + field + "\" must be a whole number"
                    + " >= 1, got " + (v == null ? "nothing" : v.toString()));
        }
        return v.asLong();
    }

    private static double bytesPerParameter(JsonNode c, String name) {
        String dtype = c.path("torch_dtype").asText(c.path("dtype").asText("bfloat16")).toLowerCase(Locale.ROOT);
        return switch (dtype) {
            case "bfloat16", "float16" -> 2;
            case "float32" -> 4;
            default -> throw new IllegalArgumentException("config.json of " + name + ": \"torch_dtype\" " + dtype
                    + " is not modelled; expected bfloat16, float16 or float32");
        };
    }

    /** Bytes of the language-model weights. */
    public double weightBytes() {
        return parameters * bytesPerParameter;
    }

    private static void requirePositive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be a finite number > 0, got " + v);
        }
    }
}
