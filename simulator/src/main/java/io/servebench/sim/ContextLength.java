package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Locale;

/**
 * The longest sequence, in tokens, each engine lets a model take by default (its max model length without
 * {@code --max-model-len} or {@code --context-length}, and the most either flag may ask for), as each derives it from
 * the model's {@code config.json} in its own way. The two can differ for the same file: a Qwen3 config extended with
 * YaRN as Qwen's model card says ({@code "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
 * "original_max_position_embeddings": 32768}} beside {@code max_position_embeddings} 40,960) gives vLLM 131,072 tokens
 * and SGLang 40,960.
 *
 * @param vllm       vLLM's, tokens
 * @param vllmRule   how vLLM reached it, for messages (e.g. {@code max_position_embeddings 40960})
 * @param sglang     SGLang's, tokens
 * @param sglangRule how SGLang reached it
 */
record ContextLength(int vllm, String vllmRule, int sglang, String sglangRule) {

    ContextLength {
        if (vllm < 2 || sglang < 2) {
            throw new IllegalArgumentException("a context length must be >= 2 tokens, got " + vllm + " and " + sglang);
        }
    }

    /** A model whose context both engines take as its {@code max_position_embeddings}, tokens. */
    static ContextLength of(int maxPositionEmbeddings) {
        String rule = "max_position_embeddings " + maxPositionEmbeddings;
        return new ContextLength(maxPositionEmbeddings, rule, maxPositionEmbeddings, rule);
    }

    /** This engine's, tokens. */
    int tokens(SimDialect dialect) {
        return dialect == SimDialect.SGLANG ? sglang : vllm;
    }

    /** How this engine reached it. */
    String rule(SimDialect dialect) {
        return dialect == SimDialect.SGLANG ? sglangRule : vllmRule;
    }

    /**
     * What each engine derives from a model's text config ({@code text_config} where there is one; the engines read
     * that too).
     * <ul>
     * <li>vLLM (vllm-project/vllm@0052a5b8, {@code vllm/config/model.py}, {@code _get_and_verify_max_len}): the
     * smallest of the length keys the config sets, {@code model_max_length} instead where set, the tokenizer's
     * {@code model_max_length} where smaller, 2,048 where none is;
     * then, unless the model type is Gemma 3's (whose 128K "is already scaled by RoPE scaling"), a rope scaling of any
     * type but {@code su}, {@code longrope} and {@code llama3} multiplies it by its {@code factor} (1 without one),
     * from {@code original_max_position_embeddings} for {@code yarn}. (A {@code longrope} model, whose default vLLM
     * takes from elsewhere, is refused.)</li>
     * <li>SGLang (sgl-project/sglang@002fc100, {@code python/sglang/srt/utils/hf_transformers_utils.py},
     * {@code get_context_length}): the first length key set, in its own order, 2,048 where none is, times the rope
     * scaling's {@code factor} unless the scaling names {@code original_max_position_embeddings} or is of type
     * {@code llama3}.</li>
     * </ul>
     * The scaling is read from {@code rope_scaling}, or {@code rope_parameters} as transformers 5 writes it (one object,
     * or one per layer type, which vLLM assumes share a factor); its type from {@code rope_type}, else {@code type}, as
     * transformers copies the older key.
     *
     * @param c      the text config
     * @param gemma3 whether the model is Gemma 3, which vLLM does not rescale
     * @param name   the model id, for messages
     */
    static ContextLength fromConfig(JsonNode c, boolean gemma3, String name) {
        return fromConfig(c, gemma3, 0, name);
    }

    /**
     * As {@link #fromConfig(JsonNode, boolean, String)}, with the {@code model_max_length} of the model's
     * {@code tokenizer_config.json}, which vLLM takes when it is smaller, before any rope scaling (0 for none read).
     */
    static ContextLength fromConfig(JsonNode c, boolean gemma3, int tokenizerMaxLength, String name) {
        // vLLM: the smallest key set, Command-R's model_max_length over it
        int vllm = Integer.MAX_VALUE;
        String vllmKey = null;
        for (String key : VLLM_KEYS) {
            int value = length(c, key, name);
            if (value > 0 && value < vllm) {
                vllm = value;
                vllmKey = key;
            }
        }
        if (length(c, "model_max_length", name) > 0) {
            vllmKey = "model_max_length";
            vllm = length(c, vllmKey, name);
        }
        String vllmRule = vllmKey == null ? "no length key, vLLM's default 2048" : vllmKey + " " + vllm;
        if (tokenizerMaxLength > 0 && (vllmKey == null || tokenizerMaxLength < vllm)) {
            vllmKey = "tokenizer_config.json model_max_length";
            vllm = tokenizerMaxLength;
            vllmRule = vllmKey + " " + vllm;
        }
        vllm = vllmKey == null ? DEFAULT : vllm;
        // SGLang: the first key set in its order
        int sglang = DEFAULT;
        String sglangRule = "no length key, SGLang's default 2048";
        for (String key : SGLANG_KEYS) {
            int value = length(c, key, name);
            if (value > 0) {
                sglang = value;
                sglangRule = key + " " + value;
                break;
            }
        }
        List<JsonNode> scalings = scalings(c);
        double vllmFactor = 1;
        for (JsonNode s : scalings) {
            String type = type(s);
            if (type.equals("longrope") || type.equals("su")) {
                // vLLM then defaults to one length and allows another: not modelled, and no architecture read uses it
                throw new IllegalArgumentException("config.json of " + name + ": a \"" + type + "\" rope scaling is not"
                        + " modelled by the simulated engine (vLLM defaults such a model to its"
                        + " original_max_position_embeddings and allows more); it would give this model another model's"
                        + " context, so it is refused");
            }
            if (!gemma3 && !type.equals("llama3")) {
                vllmFactor = s.has("factor") ? factor(s, name) : vllmFactor;
                if (type.equals("yarn")) {
                    vllm = length(s, "original_max_position_embeddings", name);
                    if (vllm == 0) {
                        throw new IllegalArgumentException("config.json of " + name + ": a yarn rope scaling without"
                                + " \"original_max_position_embeddings\", which vLLM reads to derive the model's context"
                                + " and fails to start without; expected the number of tokens the model was trained on");
                    }
                    vllmRule = "rope_scaling yarn: original_max_position_embeddings " + vllm;
                }
            }
        }
        if (vllmFactor != 1) {
            vllmRule += " x rope factor " + trim(vllmFactor);
            vllm = (int) (vllm * vllmFactor);
        }
        if (!scalings.isEmpty()) {
            JsonNode s = scalings.get(0);
            double factor = s.has("factor") ? factor(s, name) : 1;
            if (!s.has("original_max_position_embeddings") && !type(s).equals("llama3") && factor != 1) {
                sglangRule += " x rope factor " + trim(factor);
                sglang = (int) (sglang * factor);
            }
        }
        return new ContextLength(vllm, vllmRule, sglang, sglangRule);
    }

    private static final int DEFAULT = 2048;
    private static final List<String> VLLM_KEYS = List.of("max_position_embeddings", "n_positions", "max_seq_len",
            "seq_length", "model_max_length", "max_target_positions", "max_sequence_length", "max_seq_length", "seq_len");
    private static final List<String> SGLANG_KEYS = List.of("max_sequence_length", "seq_length", "max_seq_len",
            "model_max_length", "max_position_embeddings");

    /** The rope scalings a config sets: none, one, or one per layer type. */
    private static List<JsonNode> scalings(JsonNode c) {
        JsonNode s = c.hasNonNull("rope_scaling") ? c.get("rope_scaling") : c.get("rope_parameters");
        if (s == null || !s.isObject() || s.isEmpty()) {
            return List.of();
        }
        List<JsonNode> perLayerType = new java.util.ArrayList<>();
        s.forEach(v -> {
            if (v.isObject()) {
                perLayerType.add(v);
            }
        });
        return perLayerType.size() == s.size() ? perLayerType : List.of(s);
    }

    private static String type(JsonNode scaling) {
        return scaling.path("rope_type").asText(scaling.path("type").asText("default")).toLowerCase(Locale.ROOT);
    }

    /** A length key's value, 0 where the config does not set it (JSON null counts as not set, as the engines read it). */
    private static int length(JsonNode c, String key, String name) {
        JsonNode v = c.get(key);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.canConvertToInt() || v.asInt() < 2) {
            throw new IllegalArgumentException("config.json of " + name + ": \"" + key + "\" must be a whole number of"
                    + " tokens >= 2, got " + v);
        }
        return v.asInt();
    }

    private static double factor(JsonNode scaling, String name) {
        JsonNode f = scaling.get("factor");
        if (!f.isNumber() || !(f.asDouble() > 0)) {
            throw new IllegalArgumentException("config.json of " + name + ": the rope scaling's \"factor\" must be a"
                    + " number > 0, got " + f);
        }
        return f.asDouble();
    }

    private static String trim(double factor) {
        return factor == Math.rint(factor) ? Long.toString((long) factor) : Double.toString(factor);
    }
}
