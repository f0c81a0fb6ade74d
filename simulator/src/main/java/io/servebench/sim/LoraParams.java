package io.servebench.sim;

import java.util.List;

/**
 * The LoRA adapters a simulated engine serves and what it may hold: vLLM's {@code --enable-lora},
 * {@code --lora-modules}, {@code --max-loras} (1 by default) and {@code --max-lora-rank} (16), SGLang's
 * {@code --lora-paths}, {@code --max-loras-per-batch} (8) and {@code --max-lora-rank}.
 *
 * <p>What serving them costs, as {@link BatchScheduler} and {@link StepCostModel} charge it: a step holds requests of at
 * most {@code maxLoras} adapters (vLLM's scheduler skips a waiting request whose adapter would be one too many,
 * {@code vllm/v1/core/sched/scheduler.py}: "Scheduling would exceed max_loras, skip"), and the GPU holds that many;
 * an adapter a step needs and the GPU does not hold is copied in from host memory first, its bytes at
 * {@link #HOST_TO_DEVICE_BYTES_PER_S}; and each token of an adapter's request runs its low-rank products, on every
 * linear layer (the query, key, value and output projections and the MLP's three), {@code 2 × rank × (in + out)}
 * FLOPs each, reading the adapter's weights once a step.
 *
 * @param adapters the adapters' names, as requests name them in {@code model}
 * @param maxLoras adapters one step, and the GPU, may hold
 * @param maxRank  the rank every adapter is taken to have: the largest the engine allows
 */
public record LoraParams(List<String> adapters, int maxLoras, int maxRank) {

    /** No adapter. */
    public static final LoraParams NONE = new LoraParams(List.of(), 1, 16);

    /**
     * Host-to-device copy rate of an adapter's weights, bytes/s: PCIe 5.0 x16's 64 GB/s less protocol overhead, as
     * pinned-memory copies reach on H100 and H200 systems; an assumption, not a measurement of ServeBench's.
     */
    static final double HOST_TO_DEVICE_BYTES_PER_S = 50e9;

    public LoraParams {
        adapters = List.copyOf(adapters);
        if (maxLoras < 1 || maxRank < 1) {
            throw new IllegalArgumentException("expected max LoRAs and max LoRA rank >= 1, got " + maxLoras + " and "
                    + maxRank);
        }
    }

    /** Whether {@code name} is one of the adapters; a request that names no model names none. */
    public boolean serves(String name) {
        return name != null && adapters.contains(name);
    }

    /**
     * The inputs plus outputs of one decoder layer's linear projections, summed: {@code 9 h + 2 kv + 3 i} for hidden
     * size {@code h}, key-value width {@code kv} and MLP width {@code i}, with {@code kv} taken as {@code h / 4} (grouped
     * queries) and {@code i} from the layer's parameters ({@code 2.5 h² + 3 h i} of them).
     */
    static double projectionWidths(ModelProfile model) {
        double h = model.hiddenSize();
        double perLayer = model.activeParameters() / model.layers();
        double i = Math.max(h, (perLayer - 2.5 * h * h) / (3 * h));
        return 9 * h + 2 * (h / 4) + 3 * i;
    }

    /** One adapter's weights, bytes (bf16): {@code rank × widths} values per layer. */
    double bytes(ModelProfile model) {
        return 2.0 * maxRank * projectionWidths(model) * model.layers();
    }

    /** FLOPs of one token's low-rank products through one adapter. */
    double flopsPerToken(ModelProfile model) {
        return 2.0 * maxRank * projectionWidths(model) * model.layers();
    }
}
