package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Locale;

/**
 * AWQ and GPTQ checkpoints: integer weights in groups along the input, each group with a 16-bit scale and an integer
 * zero point, multiplied in 16 bits. vLLM runs those its Marlin kernels take with them ({@code awq_marlin}: 4-bit, zero
 * points stated; {@code gptq_marlin}: 4- or 8-bit, symmetric, {@code desc_act} stated; groups of 32, 64 or 128 input
 * rows, or one per output column: {@code is_awq_marlin_compatible}, {@code is_gptq_marlin_compatible}, {@code
 * MARLIN_SUPPORTED_GROUP_SIZES}, {@code vllm/model_executor/layers/quantization/}, v0.17.1), as it logs ("The model is
 * convertible to awq_marlin during runtime. Using awq_marlin kernel."); SGLang carries the same checks and kernels
 * ({@code AWQMarlinConfig.is_awq_marlin_compatible}, {@code python/sglang/srt/layers/quantization/awq.py}). A step reads
 * each weight at its bits and each group's scale and zero point ({@link #bytesPerParameter}), and computes in 16 bits.
 * Anything else (3 bits, asymmetric GPTQ, which vLLM runs with its ExLlama kernel, other group sizes) is refused by
 * name.
 */
final class GroupQuantised {

    private static final List<Integer> MARLIN_GROUP_SIZES = List.of(-1, 32, 64, 128);

    private GroupQuantised() {
    }

    /** Whether {@code quantMethod} is one this class reads. */
    static boolean names(String quantMethod) {
        return quantMethod.equals("awq") || quantMethod.equals("gptq");
    }

    /** Why an AWQ or GPTQ {@code quantization_config} is not one the twin models, in words; null when it is. */
    static String whyNotModelled(JsonNode q) {
        String method = q.path("quant_method").asText("").toLowerCase(Locale.ROOT);
        int bits = q.path("bits").asInt(0);
        JsonNode group = q.path("group_size");
        String modelled = method.equals("awq")
                ? " (modelled: 4 bits with zero_point stated, groups of 32, 64, 128 or -1: vLLM's awq_marlin)"
                : " (modelled: 4 or 8 bits, sym true, desc_act stated, groups of 32, 64, 128 or -1: vLLM's gptq_marlin)";
        if (!group.canConvertToInt() || !MARLIN_GROUP_SIZES.contains(group.asInt())) {
            return method.toUpperCase(Locale.ROOT) + " with group_size " + stated(group) + modelled;
        }
        if (method.equals("awq") && (bits != 4 || !q.path("zero_point").isBoolean())) {
            return "AWQ with bits " + stated(q.path("bits")) + ", zero_point " + stated(q.path("zero_point")) + modelled;
        }
        if (method.equals("gptq") && (bits != 4 && bits != 8 || !q.path("sym").asBoolean(false)
                || !q.path("desc_act").isBoolean())) {
            return "GPTQ with bits " + stated(q.path("bits")) + ", sym " + stated(q.path("sym")) + ", desc_act "
                    + stated(q.path("desc_act")) + modelled;
        }
        return null;
    }

    private static String stated(JsonNode value) {
        return value.isMissingNode() ? "unstated" : value.toString();
    }

    /**
     * Bytes per weight as the checkpoint stores them: its bits, and per group of {@code group_size} weights a 16-bit
     * scale and a zero point of as many bits (AutoAWQ's and AutoGPTQ's {@code qweight}, {@code scales}, {@code qzeros});
     * 4-bit groups of 128: 0.5195 bytes.
     */
    static double bytesPerParameter(JsonNode q) {
        double bytes = q.path("bits").asInt() / 8.0;
        int group = q.path("group_size").asInt();
        return group <= 0 ? bytes : bytes + (2 + bytes) / group;
    }
}
