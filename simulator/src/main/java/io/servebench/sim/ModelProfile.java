package io.servebench.sim;

/**
 * What the timing model needs to know about a model.
 *
 * @param name                  the model id served (e.g. {@code Qwen/Qwen3.5-9B})
 * @param parameters            language-model parameters, all read once per forward step
 * @param bytesPerParameter     bytes per weight (2 for bf16)
 * @param kvBytesPerToken       KV-cache bytes one token of context occupies, summed over the attention layers
 * @param stateBytesPerSequence fixed per-sequence state (linear-attention / SSM layers), read every step
 *                              for every running sequence; 0 for a pure-attention model
 * @param nonLanguageBytes      weights (and their reserved working memory) that only multimodal input uses,
 *                              e.g. a vision encoder; freed by {@code --language-model-only}
 * @param draftFraction         cost of one draft token of the model's native multi-token-prediction (MTP) head,
 *                              as a fraction of one full forward step of the main model
 */
public record ModelProfile(
        String name,
        double parameters,
        double bytesPerParameter,
        double kvBytesPerToken,
        double stateBytesPerSequence,
        double nonLanguageBytes,
        double draftFraction) {

    public ModelProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("model name must not be blank");
        }
        requirePositive("parameters", parameters);
        requirePositive("bytesPerParameter", bytesPerParameter);
        requirePositive("kvBytesPerToken", kvBytesPerToken);
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
     * 0.45e9 parameters plus its encoder cache, about 2 GiB; a one-layer MTP head costing about 1/32
     * of a step per draft token.
     *
     * @param name the model id to report (the study's model name; the profile's numbers do not change)
     */
    public static ModelProfile qwen35_9b(String name) {
        return new ModelProfile(name, 9e9, 2, 2.0 * 8 * 4 * 256 * 2, 24.0 * 32 * 128 * 128 * 4,
                2.0 * 1024 * 1024 * 1024, 1.0 / 32);
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
