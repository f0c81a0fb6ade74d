package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Locale;
import java.util.Optional;

/**
 * NVIDIA ModelOpt checkpoints (the {@code nvidia/...-FP8} models): FP8 weights and activations per tensor, which vLLM
 * runs with {@code ModelOptFp8LinearMethod} on GPUs of compute capability 8.9 and up ({@code ModelOptFp8Config}, {@code
 * vllm/model_executor/layers/quantization/modelopt.py}, v0.17.1 and v0.26.0). The quantisation is named in the
 * config's {@code quantization_config} ({@code "quant_method": "modelopt"}, its {@code quant_algo} there or under
 * {@code "quantization"}) or, in the first of these checkpoints, only in an {@code hf_quant_config.json} beside it,
 * which vLLM reads too ({@code get_config_filenames}). Any other algorithm (NVFP4, W4A8_AWQ, FP8 per channel or per
 * block) is refused by name.
 */
final class ModelOpt {

    /** The {@code quant_method} that names a ModelOpt checkpoint. */
    static final String METHOD = "modelopt";

    /** vLLM's {@code ModelOptFp8Config.get_min_capability()}: Ada and Hopper and later. */
    static final int MIN_COMPUTE_CAPABILITY = 89;

    /**
     * A ModelOpt FP8 checkpoint.
     *
     * @param kvCacheFp8 whether it quantises its KV cache to FP8 too ({@code kv_cache_quant_algo} {@code FP8}, or a
     *                   {@code kv_cache_scheme} of static 8-bit floats), which the engines then cache in FP8 by default:
     *                   {@code --kv-cache-dtype auto} resolves to the checkpoint's (vLLM's {@code
     *                   resolve_kv_cache_dtype_string}, {@code get_kv_cache_quant_algo_string}, {@code
     *                   vllm/utils/torch_utils.py}, v0.17.1 and v0.26.0; SGLang's {@code configure_kv_cache_dtype})
     */
    record Checkpoint(boolean kvCacheFp8) {
    }

    private ModelOpt() {
    }

    /** The ModelOpt checkpoint a config's {@code quantization_config} names, if any. */
    static Optional<Checkpoint> of(JsonNode root) {
        JsonNode q = root.path("quantization_config");
        if (!q.path("quant_method").asText("").startsWith(METHOD)) {
            return Optional.empty();
        }
        return Optional.of(new Checkpoint(kvCacheFp8(q)));
    }

    /** Why a ModelOpt {@code quantization_config} is not the FP8 the twin models, in words; null when it is. */
    static String whyNotFp8(JsonNode q) {
        String algo = inner(q).path("quant_algo").asText(q.path("quant_algo").asText("")).toUpperCase(Locale.ROOT);
        return algo.equals("FP8") ? null : "ModelOpt with quant_algo " + (algo.isEmpty() ? "unstated" : algo)
                + " (modelled: FP8, weights and activations per tensor)";
    }

    private static boolean kvCacheFp8(JsonNode q) {
        JsonNode inner = inner(q);
        JsonNode kv = first(inner.path("kv_cache_scheme"), q.path("kv_cache_scheme"),
                inner.path("kv_cache_quant_algo"), q.path("kv_cache_quant_algo"));
        if (kv.isObject()) {
            return kv.path("dynamic").isBoolean() && !kv.path("dynamic").asBoolean()
                    && kv.path("num_bits").asInt() == 8 && kv.path("type").asText().equals("float");
        }
        return kv.isTextual() && kv.asText().equalsIgnoreCase("fp8");
    }

    private static JsonNode inner(JsonNode q) {
        return q.path("quantization").isObject() ? q.get("quantization") : q;
    }

    private static JsonNode first(JsonNode... nodes) {
        for (JsonNode n : nodes) {
            if (!n.isMissingNode() && !n.isNull()) {
                return n;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
