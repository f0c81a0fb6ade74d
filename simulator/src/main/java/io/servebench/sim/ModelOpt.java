package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * NVIDIA ModelOpt checkpoints: the {@code nvidia/...-FP8} models' FP8 weights and activations per tensor, which vLLM
 * runs with {@code ModelOptFp8LinearMethod} on GPUs of compute capability 8.9 and up ({@code ModelOptFp8Config}, {@code
 * vllm/model_executor/layers/quantization/modelopt.py}, v0.17.1 and v0.26.0), and the {@code nvidia/...-FP4} models'
 * NVFP4 ({@link LowBitWeights#NVFP4}: {@code ModelOptNvFp4Config}, minimum capability 7.5). The quantisation is named in
 * the config's {@code quantization_config} ({@code "quant_method": "modelopt"}, its {@code quant_algo} there or under
 * {@code "quantization"}) or, in the first of these checkpoints, only in an {@code hf_quant_config.json} beside it,
 * which vLLM reads too ({@code get_config_filenames}). What NVFP4 leaves in 16 bits is its {@code exclude_modules}
 * (under {@code "quantization"}) or {@code ignore} (beside {@code quant_algo}), matched as vLLM's {@code
 * ModelOptQuantConfigBase.is_layer_excluded} matches them: a module of that name, one whose name holds the entry, or
 * one the entry matches as a wildcard ({@code fnmatch}). Any other algorithm (W4A16 NVFP4, W4A8_AWQ, FP8 per channel or
 * per block, mixed precision) is refused by name.
 */
final class ModelOpt {

    /** The {@code quant_method} that names a ModelOpt checkpoint. */
    static final String METHOD = "modelopt";

    /**
     * The method both engines serve a ModelOpt NVFP4 checkpoint with, which their {@code --quantization} takes too:
     * {@code ModelOptNvFp4Config.override_quantization_method} names it so for a checkpoint whose {@code quant_algo}
     * holds NVFP4 (vLLM's {@code modelopt.py}; SGLang's {@code modelopt_quant.py}, which also takes {@code modelopt_fp4}
     * over a {@code modelopt} checkpoint: {@code compatible_quantization_methods}, {@code model_config.py}).
     */
    static final String NVFP4_METHOD = "modelopt_fp4";

    /** vLLM's {@code ModelOptFp8Config.get_min_capability()}: Ada and Hopper and later. */
    static final int MIN_COMPUTE_CAPABILITY = 89;

    private static final String FP8 = "FP8";
    private static final String NVFP4 = "NVFP4";

    /**
     * A ModelOpt FP8 checkpoint.
     *
     * @param kvCacheFp8 whether it quantises its KV cache to FP8 too ({@code kv_cache_quant_algo} {@code FP8}, or a
     *                   {@code kv_cache_scheme} of static 8-bit floats), which the engines then cache in FP8 by default:
     *                   {@code --kv-cache-dtype auto} resolves to the checkpoint's (vLLM's {@code
     *                   resolve_kv_cache_dtype_string}, {@code get_kv_cache_quant_algo_string}, {@code
     *                   vllm/utils/torch_utils.py}, v0.17.1 and v0.26.0; SGLang's {@code configure_kv_cache_dtype})
     * @param nvfp4      NVFP4 weights rather than FP8: no GPU of the twin's is below their minimum capability
     */
    record Checkpoint(boolean kvCacheFp8, boolean nvfp4) {
    }

    private ModelOpt() {
    }

    /** The ModelOpt checkpoint a config's {@code quantization_config} names, if any. */
    static Optional<Checkpoint> of(JsonNode root) {
        JsonNode q = root.path("quantization_config");
        if (!q.path("quant_method").asText("").startsWith(METHOD)) {
            return Optional.empty();
        }
        return Optional.of(new Checkpoint(kvCacheFp8(q), algorithm(q).equals(NVFP4)));
    }

    /** Why a ModelOpt {@code quantization_config} is not one the twin models, in words; null when it is. */
    static String whyNotModelled(JsonNode q) {
        String algo = algorithm(q);
        JsonNode group = inner(q).path("group_size");
        if (algo.equals(NVFP4) && !group.isMissingNode() && !group.isNull()
                && group.asInt() != LowBitWeights.NVFP4_GROUP_SIZE) {
            return "ModelOpt NVFP4 with group_size " + group + " (modelled: NVFP4's groups of 16)";
        }
        return algo.equals(FP8) || algo.equals(NVFP4) ? null : "ModelOpt with quant_algo "
                + (algo.isEmpty() ? "unstated" : algo) + " (modelled: FP8, weights and activations per tensor; NVFP4)";
    }

    /** Whether a ModelOpt {@code quantization_config} names NVFP4. */
    static boolean nvfp4(JsonNode q) {
        return algorithm(q).equals(NVFP4);
    }

    /**
     * What an NVFP4 checkpoint's exclusions leave of the model ({@link CompressedTensors#scheme(String, LowBitWeights,
     * double, List, List)}), each entry matched against the module names of each part, as vLLM matches it.
     *
     * @throws IllegalArgumentException for an entry that names one layer's modules of a part (the twin reads one layer
     *                                  of each part and would take it for all), one that names none but the output
     *                                  head, the embeddings, the routers and the MTP layers, or a part left partly
     */
    static CompressedTensors.Scheme nvfp4Scheme(JsonNode q, List<CompressedTensors.Part> parts) {
        JsonNode list = q.path("quantization").isObject() ? q.get("quantization").path("exclude_modules")
                : q.path("ignore");
        List<String> entries = new ArrayList<>();
        list.forEach(entry -> entries.add(entry.asText()));
        String format = "ModelOpt NVFP4";
        for (String entry : entries) {
            List<String> named = parts.stream().flatMap(p -> p.modules().stream()).filter(m -> excludes(entry, m))
                    .toList();
            String lower = entry.toLowerCase(Locale.ROOT);
            if (named.isEmpty() && !(lower.contains("lm_head") || lower.contains("embed") || lower.contains("mtp")
                    || lower.matches(".*gate\\*?"))) {
                throw new IllegalArgumentException(format + " leaving \"" + entry + "\" unquantised (modelled: the"
                        + " output head, the embeddings, the routers and the MTP layers"
                        + (parts.isEmpty() ? " only" : ", and whole parts: " + String.join(", ",
                        parts.stream().map(CompressedTensors.Part::what).toList())) + ")");
            }
            if (!named.isEmpty() && ONE_LAYER.matcher(entry).find()) {
                throw new IllegalArgumentException(format + " exclude entry \"" + entry + "\", which names one"
                        + " layer's modules (" + named.get(0) + "): the twin reads one layer of each part (modelled:"
                        + " entries naming a part in every layer, such as \"*self_attn*\" or"
                        + " \"model.layers.*.mlp.experts*\")");
            }
        }
        List<CompressedTensors.Part> kept = CompressedTensors.kept(format, parts,
                module -> entries.stream().anyMatch(e -> excludes(e, module)));
        return CompressedTensors.scheme(format, LowBitWeights.NVFP4, LowBitWeights.NVFP4_BYTES_PER_PARAMETER, kept,
                parts);
    }

    /** A layer's index in a module name: {@code layers.12.}. */
    private static final Pattern ONE_LAYER = Pattern.compile("layers\\.\\d+\\.");

    /**
     * Whether an exclusion names a module, as vLLM's {@code is_layer_excluded} decides: the name itself, a name that
     * holds it, or a name it matches as a wildcard ({@code fnmatch}: {@code *} any run of characters, {@code ?} one).
     */
    static boolean excludes(String entry, String module) {
        if (module.contains(entry)) {
            return true;
        }
        StringBuilder regex = new StringBuilder();
        for (char c : entry.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return module.matches(regex.toString());
    }

    private static String algorithm(JsonNode q) {
        return inner(q).path("quant_algo").asText(q.path("quant_algo").asText("")).toUpperCase(Locale.ROOT);
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
