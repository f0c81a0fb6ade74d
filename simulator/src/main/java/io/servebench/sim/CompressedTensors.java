package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Locale;

/**
 * The {@code compressed-tensors} checkpoints (llm-compressor's, as RedHatAI publishes them) that the simulated engine
 * reads: FP8 weights and FP8 activations on every linear layer, which vLLM runs as it runs any FP8 checkpoint
 * ({@code CompressedTensorsW8A8Fp8} where the GPU has FP8 tensor cores, FP8 weights widened in Marlin where it has not).
 * The preset that writes them is compressed-tensors' {@code FP8_DYNAMIC} (weights 8-bit float per channel, static;
 * activations 8-bit float per token, dynamic; vllm-project/compressed-tensors {@code quant_scheme.py}), its
 * {@code FP8} (per tensor, static) and {@code FP8_BLOCK}; vLLM reads a group as FP8 W8A8 when its weights and its
 * input activations are 8-bit floats, the weights symmetric, static and per tensor, channel or block, the activations
 * dynamic or per tensor ({@code vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py},
 * {@code _is_fp8_w8a8}). Anything else (integer weights, 4-bit floats, FP8 weights without FP8 activations, groups on
 * some layers only, layers other than the output head, the embeddings and the routers left unquantised) is refused
 * by name: read as FP8 throughout it would be another model.
 */
final class CompressedTensors {

    private CompressedTensors() {
    }

    /**
     * Why a {@code compressed-tensors} {@code quantization_config} is not FP8 on every linear layer, in words; null
     * when it is.
     */
    static String whyNotFp8Everywhere(JsonNode q) {
        JsonNode groups = q.path("config_groups");
        if (!groups.isObject() || groups.isEmpty()) {
            return "compressed-tensors without \"config_groups\"";
        }
        var names = groups.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            JsonNode g = groups.get(name);
            JsonNode w = g.path("weights");
            JsonNode a = g.path("input_activations");
            if (!floats8(w) || !w.path("symmetric").asBoolean(true) || w.path("dynamic").asBoolean(false)
                    || !List.of("tensor", "channel", "block").contains(strategy(w))) {
                return "compressed-tensors group " + name + " with weights " + w + " (modelled: static symmetric 8-bit"
                        + " float weights per tensor, channel or block)";
            }
            if (!floats8(a) || !(a.path("dynamic").asBoolean(false)
                    || a.path("symmetric").asBoolean(true) && strategy(a).equals("tensor"))) {
                return "compressed-tensors group " + name + " with input activations " + a + " (modelled: 8-bit float"
                        + " activations, dynamic or per tensor; FP8 weights beside 16-bit activations are not)";
            }
            if (!g.path("targets").equals(LINEAR)) {
                return "compressed-tensors group " + name + " targeting " + g.path("targets") + " (modelled: every"
                        + " linear layer, [\"Linear\"])";
            }
        }
        if (groups.size() > 1) {
            return "compressed-tensors with " + groups.size() + " groups (modelled: one, on every linear layer)";
        }
        for (JsonNode ignored : q.path("ignore")) {
            String module = ignored.asText().toLowerCase(Locale.ROOT);
            if (!module.contains("lm_head") && !module.contains("embed") && !module.matches(".*gate\\$?")) {
                return "compressed-tensors leaving " + ignored + " unquantised (modelled: the output head, the"
                        + " embeddings and the routers only)";
            }
        }
        return null;
    }

    private static final JsonNode LINEAR = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode()
            .add("Linear");

    private static boolean floats8(JsonNode args) {
        return args.isObject() && args.path("num_bits").asInt() == 8 && args.path("type").asText().equals("float");
    }

    private static String strategy(JsonNode args) {
        return args.path("strategy").asText("").toLowerCase(Locale.ROOT);
    }
}
