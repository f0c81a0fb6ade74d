package io.servebench.sim;

import java.util.List;
import java.util.Locale;

/**
 * What {@code --quantization} asks of a checkpoint, as the engines decide it when they start ({@code
 * ModelConfig._verify_quantization}, vLLM's, and SGLang's adapted from it): a checkpoint that names its method in its
 * config is served by that method, which a method's {@code override_quantization_method} may swap for a faster kernel of
 * the same format; an argument that names another method stops the start with "Quantization method specified in the
 * model config (M) does not match the quantization method specified in the `quantization` argument (X)." (in both
 * engines' logs). AWQ and GPTQ checkpoints that Marlin takes run with {@code awq_marlin} and {@code gptq_marlin} when the
 * argument is left out or names {@code marlin} or the Marlin method, and with the older AWQ or GPTQ kernel when it names
 * {@code awq} or {@code gptq} ("... however you specified quantization=awq explicitly, so forcing awq. Use
 * quantization=awq_marlin for faster inference"), which the twin does not model ({@code AWQMarlinConfig} and {@code
 * GPTQMarlinConfig.override_quantization_method}, {@code vllm/model_executor/layers/quantization/awq_marlin.py} and
 * {@code gptq_marlin.py}; SGLang's {@code awq.py} and {@code gptq.py}). SGLang also lets a few arguments re-quantise a
 * checkpoint of another method ({@code compatible_quantization_methods}: {@code w8a8_fp8} and {@code w8a8_int8} over
 * compressed-tensors, {@code modelopt_fp8} and {@code modelopt_fp4} over ModelOpt), with kernels of its own the twin does
 * not model either.
 */
final class QuantizationArgument {

    /** What serves the weights. */
    enum Outcome {
        /** The checkpoint's own method, as its config names it (16 bits for a checkpoint that names none). */
        CHECKPOINT,
        /** FP8 weights quantised as the engine loads a 16-bit checkpoint ({@code --quantization fp8}). */
        FP8_ONLINE,
        /** A method the twin does not model on a 16-bit checkpoint: listed among the flags it ignores. */
        IGNORED
    }

    private QuantizationArgument() {
    }

    /**
     * @param dialect    the engine
     * @param checkpoint the {@code quant_method} the checkpoint's config names, in lower case ({@code modelopt_fp4} for
     *                   ModelOpt's NVFP4: {@link ModelOpt#NVFP4_METHOD}); empty for none
     * @param argument   the {@code --quantization} given, null for none
     * @throws IllegalArgumentException where the engine would not start, or would run a kernel the twin does not model
     */
    static Outcome of(SimDialect dialect, String checkpoint, String argument) {
        if (argument == null) {
            return Outcome.CHECKPOINT;
        }
        String given = argument.toLowerCase(Locale.ROOT);
        if (checkpoint.isEmpty()) {
            return given.equals("fp8") ? Outcome.FP8_ONLINE : Outcome.IGNORED;
        }
        String engine = dialect.engineName();
        if (given.equals(checkpoint) && (checkpoint.equals("awq") || checkpoint.equals("gptq"))) {
            throw new IllegalArgumentException("--quantization " + given + " makes " + engine + " run this "
                    + checkpoint.toUpperCase(Locale.ROOT) + " checkpoint with its " + given + " kernel rather than Marlin"
                    + " (\"Detected that the model can run with " + given + "_marlin, however you specified quantization="
                    + given + " explicitly, so forcing " + given + ". Use quantization=" + given + "_marlin for faster"
                    + " inference\"), which the simulated engine does not model; expected the flag left out, or"
                    + " --quantization " + given + "_marlin");
        }
        boolean marlin = (checkpoint.equals("awq") || checkpoint.equals("gptq"))
                && (given.equals("marlin") || given.equals(checkpoint + "_marlin"));
        // a ModelOpt NVFP4 checkpoint named by its config's quant_method (modelopt) or its own (modelopt_fp4)
        boolean nvfp4 = checkpoint.equals(ModelOpt.NVFP4_METHOD) && given.equals(ModelOpt.METHOD);
        if (given.equals(checkpoint) || marlin || nvfp4) {
            return Outcome.CHECKPOINT;
        }
        if (dialect == SimDialect.SGLANG && requantises(checkpoint, given)) {
            throw new IllegalArgumentException("--quantization " + given + " makes SGLang re-quantise this "
                    + checkpoint + " checkpoint with kernels of its own, which the simulated engine does not model;"
                    + " expected the flag left out");
        }
        throw new IllegalArgumentException("the engine would not start: " + engine + " refuses --quantization " + given
                + " for this checkpoint (\"Quantization method specified in the model config (" + checkpoint + ") does not"
                + " match the quantization method specified in the `quantization` argument (" + given + ").\"); expected"
                + " the flag left out, which serves the checkpoint as its config says");
    }

    /** SGLang's {@code compatible_quantization_methods}: arguments it lets re-quantise a checkpoint of another method. */
    private static boolean requantises(String checkpoint, String given) {
        return switch (given) {
            case "w8a8_fp8", "w8a8_int8" -> List.of("compressed-tensors", "compressed_tensors").contains(checkpoint);
            case "modelopt_fp8", "modelopt_fp4" -> checkpoint.equals(ModelOpt.METHOD);
            default -> false;
        };
    }
}
