package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.flags.EngineFlags;
import io.servebench.flags.Flag;
import io.servebench.flags.FlagCatalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * How a simulated engine is configured: the model and GPU it imitates and the serving options a study
 * sets through vLLM or SGLang flags. Build it with {@link #fromFlags(String, String, List)}.
 *
 * @param dialect                 {@link SimDialect#VLLM} or {@link SimDialect#SGLANG}: whose flags and defaults were applied
 * @param model                   the model's performance profile (its name is the served model id)
 * @param gpu                     the GPU's performance profile
 * @param maxModelLen             longest prompt + output, in tokens
 * @param maxNumSeqs              most sequences in one batch
 * @param maxNumBatchedTokens     most tokens (prefill chunks + decode tokens) computed in one step
 * @param prefixCaching           whether prompts reuse the KV cache of earlier prompts' common prefix
 * @param speculativeMethod       the draft method ({@code mtp}, {@code eagle}, {@code ngram}, ...), {@code null} when off
 * @param speculativeTokens       draft tokens proposed per step, 0 when speculative decoding is off
 * @param acceptanceRates         per draft position, the probability that its token is accepted given the previous
 *                                one was; positions past the list take its last value (one value: the same for all)
 * @param performanceMode         vLLM's {@code --performance-mode}; changes the fixed per-step overhead
 * @param languageModelOnly       the vision encoder is not loaded, which leaves its memory to the KV cache
 * @param reasoningParser         the reasoning parser name, {@code null} when none (no {@code reasoning_content})
 * @param gpuMemoryUtilization    fraction of each GPU's memory the engine's flag gives, in (0, 1]: vLLM's
 *                                {@code --gpu-memory-utilization} (the whole budget, activations included) or SGLang's
 *                                {@code --mem-fraction-static} (weights and KV cache only)
 * @param tensorParallelSize      GPUs the model is split over
 * @param expertParallelSize      groups of GPUs a mixture of experts' routed experts are divided among, whole experts to a
 *                                group (vLLM's {@code --enable-expert-parallel}: each of the tensor-parallel GPUs;
 *                                SGLang's {@code --ep-size}, each expert then split over {@code tensorParallelSize /
 *                                expertParallelSize} GPUs); 1 without expert parallelism, every expert split over all
 * @param ignoredFlags            flags the simulation does not model, as written ({@code --name=value})
 * @param apiKey                  the bearer token {@code /v1/*} requests must carry ({@code --api-key}), {@code null} for none
 * @param engine                  the host-side constants of the engine imitated ({@link EngineProfile#forDialect})
 * @param stateSlots              sequences whose linear-attention state SGLang keeps in a pool of its own (the mamba pool,
 *                                set aside from the KV cache at start, {@link EngineDefaults#SGLANG_MAMBA_FULL_MEMORY_RATIO});
 *                                0 when the state lives in the KV pool beside the tokens (vLLM) or the model has none
 * @param lora                    the LoRA adapters it serves
 * @param servedNames             {@code --served-model-name}'s names, the first in responses and metrics; empty for the
 *                                model's own name
 * @param adminApiKey             SGLang's {@code --admin-api-key}, which its admin routes then want; {@code null} for none
 * @param modelSource             where the model's config was read: "built in", a {@code config.json}'s path, or "given"
 *                                for a profile made in code
 * @param overlapScheduleDisabled SGLang's {@code --disable-overlap-schedule}, or its n-gram speculative decoding, which
 *                                turns the overlap off: its scheduler then runs the host's work between the GPU's steps
 *                                ({@link #overlapsHostWork})
 * @param scheduleConservativeness SGLang's {@code --schedule-conservativeness} (1 unless given): the share of the running
 *                                requests' outputs its admission holds back scales with it ({@link OutputReserve})
 * @param chunkedPrefill          whether a prompt is prefilled in chunks of what a step has left (both engines' default);
 *                                without, it is prefilled whole, and {@code maxNumBatchedTokens} bounds a step's prompts
 *                                as vLLM's {@code --no-enable-chunked-prefill} and SGLang's {@code --chunked-prefill-size
 *                                -1} have it ({@link BatchScheduler})
 * @param longPrefillTokenThreshold vLLM's {@code --long-prefill-token-threshold}: the most prompt tokens one request
 *                                computes in a step, 0 for no cap ({@link BatchScheduler})
 * @param mixedChunk              SGLang's {@code --enable-mixed-chunk}, which it turns off with speculative decoding:
 *                                its running requests' decode tokens join a prefill batch ({@link #prefillsApart})
 * @param kvCacheMemoryBytes      vLLM's {@code --kv-cache-memory-bytes}: the KV cache's size per GPU, bytes, whatever the
 *                                memory fraction ("kv_cache_memory_bytes (when not-None) ignores gpu_memory_utilization",
 *                                {@code vllm/config/cache.py}); 0 unless given ({@link #kvPoolBytes})
 * @param maxTotalTokens          SGLang's {@code --max-total-tokens}: its pool holds the smaller of what it profiled and
 *                                this many tokens ({@code _apply_token_constraints}, {@code model_runner.py}); 0 unless
 *                                given ({@link #kvPoolBytes})
 */
public record SimParams(
        SimDialect dialect,
        ModelProfile model,
        GpuProfile gpu,
        int maxModelLen,
        int maxNumSeqs,
        int maxNumBatchedTokens,
        boolean prefixCaching,
        String speculativeMethod,
        int speculativeTokens,
        List<Double> acceptanceRates,
        PerformanceMode performanceMode,
        boolean languageModelOnly,
        String reasoningParser,
        double gpuMemoryUtilization,
        int tensorParallelSize,
        int expertParallelSize,
        List<String> ignoredFlags,
        String apiKey,
        EngineProfile engine,
        int stateSlots,
        LoraParams lora,
        List<String> servedNames,
        String adminApiKey,
        String modelSource,
        boolean overlapScheduleDisabled,
        double scheduleConservativeness,
        boolean chunkedPrefill,
        int longPrefillTokenThreshold,
        boolean mixedChunk,
        double kvCacheMemoryBytes,
        long maxTotalTokens) {

    /** Settings whose per-sequence state, if any, lives in the KV pool (every vLLM set-up; SGLang with a dense model). */
    public SimParams(SimDialect dialect, ModelProfile model, GpuProfile gpu, int maxModelLen, int maxNumSeqs,
                     int maxNumBatchedTokens, boolean prefixCaching, String speculativeMethod, int speculativeTokens,
                     List<Double> acceptanceRates, PerformanceMode performanceMode, boolean languageModelOnly,
                     String reasoningParser, double gpuMemoryUtilization, int tensorParallelSize, List<String> ignoredFlags,
                     String apiKey, EngineProfile engine) {
        this(dialect, model, gpu, maxModelLen, maxNumSeqs, maxNumBatchedTokens, prefixCaching, speculativeMethod,
                speculativeTokens, acceptanceRates, performanceMode, languageModelOnly, reasoningParser,
                gpuMemoryUtilization, tensorParallelSize, 1, ignoredFlags, apiKey, engine, 0, LoraParams.NONE, List.of(), null, "given",
                false, 1, true, 0, false, 0, 0);
    }

    /**
     * vLLM's {@code --performance-mode}. The simulation models it as a factor on the fixed per-step
     * overhead (scheduling, kernel launches): {@code interactivity} 0.85 (CUDA graphs captured for
     * small batches, less host work per step), {@code balanced} 1.0, {@code throughput} 1.1 (larger
     * graphs padded for big batches cost small batches a little); {@code throughput} also doubles the batch limits vLLM
     * defaults ({@link Builder#build}).
     */
    public enum PerformanceMode {
        INTERACTIVITY(0.85), BALANCED(1.0), THROUGHPUT(1.1);

        private final double overheadFactor;

        PerformanceMode(double overheadFactor) {
            this.overheadFactor = overheadFactor;
        }

        /** Multiplier on the fixed per-step overhead. */
        public double overheadFactor() {
            return overheadFactor;
        }
    }

    /**
     * Default draft acceptance rate of a multi-token-prediction head (vLLM {@code mtp}, SGLang {@code NEXTN}):
     * fitted by {@code sim calibrate} on the reference study's {@code mtp-1} block (Qwen3.5-9B on ShareGPT with a
     * reasoning parser), on its mean latency less its mean TTFT (0.186 on the whole latency before stop 60).
     * Acceptance is a property of the model and the data, one figure per run: for other data set {@code
     * --sim-acceptance-rate}.
     */
    public static final double MTP_ACCEPTANCE = 0.204;
    /** Default draft acceptance rate of EAGLE / EAGLE-3 heads. */
    public static final double EAGLE_ACCEPTANCE = 0.6;
    /** Default draft acceptance rate of n-gram (prompt lookup) drafting. */
    public static final double NGRAM_ACCEPTANCE = 0.4;
    /** Default draft acceptance rate of any other draft method (e.g. a separate draft model). */
    public static final double OTHER_ACCEPTANCE = 0.5;

    /** Default memory fraction: vLLM {@code --gpu-memory-utilization} 0.9 ({@code vllm/config/cache.py}). */
    public static final double VLLM_DEFAULT_MEMORY_FRACTION = 0.9;
    private static final double GIB = 1024.0 * 1024 * 1024;

    /**
     * vLLM's memory per GPU outside PyTorch that its budget pays for, bytes (CUDA context, cuBLAS): vLLM's own memory
     * profile of Meta-Llama-3-8B on an H100 (vllm-project/vllm PR #10511, the sanity check of its memory profiling,
     * 2024-12-13): "non_torch_memory 1.79GiB" on one GPU. Taken at any tensor-parallel size: what tensor parallelism adds
     * there (the same profile at {@code -tp 2}: 3.58 GiB, NCCL's and the custom all-reduce's buffers) is allocated before
     * the memory snapshot vLLM's budget is measured against since vllm-project/vllm PR #25359 (September 2025, "NCCL
     * buffers (~4.5 GiB for tensor parallelism) were allocated after the memory snapshot in some cases": it moved
     * {@code init_worker_distributed_environment} before the snapshot, {@code vllm/v1/worker/gpu_worker.py},
     * {@code init_device}; PR #45517, June 2026, finds it there still), so it lies outside the budget. Until stop 60 the
     * twin took the 3.58 GiB at every size above one, which with the KV heads copied past their number ({@link
     * ModelProfile#kvCopies}) refused a start vLLM 0.11.0 made: Qwen3-235B-A22B-Instruct-2507 at {@code -tp 8} on eight
     * H100s with its default 262,144 tokens of context (docs/simulated-engine.md). The one-GPU figure stays as measured
     * although vLLM's CUDA context also precedes the snapshot: the forward's own non-torch memory and the activations
     * of models other than the profiled Llama are not modelled apart from it.
     */
    static final double VLLM_NON_TORCH_BYTES = 1.79 * GIB;
    /**
     * The activation peak of vLLM's profiling run, bytes, at {@link #VLLM_PROFILED_TOKENS} tokens a step: the same
     * profile's "PyTorch activation peak memory 1.26GiB". The run is one forward pass over the step's token budget
     * ({@code --max-num-batched-tokens}), whose activations grow with its tokens, so the peak is taken in proportion
     * to the budget: on an A100, whose default budget is 2,048 tokens, a quarter of it. Until stop 55 it was 1.26 GiB
     * whatever the budget, which made the twin refuse a start vLLM 0.11.0 made: GPUStack's Qwen3-32B on one A100 with
     * {@code --max-model-len 32768} (docs/simulated-engine.md). vLLM's V1 engine reports the same peak for
     * llava-v1.6-mistral-7b at 16,384 tokens as 1.97 GiB (a public log of a 0.10.2 start on an H100).
     */
    static final double VLLM_ACTIVATION_PEAK_BYTES = 1.26 * GIB;
    /** The token budget of the profile {@link #VLLM_ACTIVATION_PEAK_BYTES} was measured at. */
    static final int VLLM_PROFILED_TOKENS = 8192;
    /**
     * Memory per GPU that a CUDA context takes before SGLang measures what its fraction is a fraction of, bytes.
     * SGLang's pool is {@code available_gpu_memory - total_gpu_memory * (1 - mem_fraction_static)} with {@code
     * available_gpu_memory} the free memory after the weights loaded and {@code total_gpu_memory} the free memory when
     * {@code init_torch_distributed} ended ({@code min_per_gpu_memory}; {@code model_runner.py}, {@code
     * profile_max_num_token}): the fraction of what CUDA and torch.distributed left, less the weights. On eight H200s
     * (139.80 GiB each) SGLang logged 139.30 GiB free before torch.distributed's start-up took its 2.01 GiB and 137.29
     * after ("Init torch distributed ends. mem usage=2.01 GB", "Load weight begin. avail mem=137.29 GB";
     * sgl-project/sglang PR #11716, 2025-10-16): 0.50 GiB of context.
     */
    static final double SGLANG_CONTEXT_BYTES = 0.50 * GIB;
    /**
     * What torch.distributed's start-up (NCCL's communicators, the custom all-reduce's buffers) takes per GPU beside
     * the context with tensor parallelism, bytes: 2.01 GiB on each of eight H200s (the same log). Taken for every size
     * above 1: with it, the twin's SGLang pool of Qwen3-235B-A22B-FP8 on four H100s at {@code --mem-fraction-static
     * 0.93} is 16.28 GiB a GPU, where SGLang logged 16.46 ("K size: 8.23 GB, V size: 8.23 GB", 367,404 tokens;
     * vllm-project/vllm issue #21348); without either, 18.6.
     */
    static final double SGLANG_DISTRIBUTED_BYTES = 2.01 * GIB;

    public SimParams {
        Objects.requireNonNull(lora, "lora");
        servedNames = List.copyOf(servedNames);
        if (dialect == SimDialect.SIM) {
            throw new IllegalArgumentException("the settings' dialect is vllm or sglang: sim reads vLLM's flags");
        }
        if (maxModelLen < 2 || maxNumSeqs < 1 || maxNumBatchedTokens < 1 || tensorParallelSize < 1 || speculativeTokens < 0) {
            throw new IllegalArgumentException("maxModelLen >= 2, maxNumSeqs, maxNumBatchedTokens, tensorParallelSize >= 1 "
                    + "and speculativeTokens >= 0 expected, got " + maxModelLen + ", " + maxNumSeqs + ", "
                    + maxNumBatchedTokens + ", " + tensorParallelSize + ", " + speculativeTokens);
        }
        if (expertParallelSize < 1 || tensorParallelSize % expertParallelSize != 0) {
            throw new IllegalArgumentException("the expert-parallel size " + expertParallelSize + " must divide the"
                    + " tensor-parallel size " + tensorParallelSize + " (SGLang's --ep-size a divisor of --tp-size)");
        }
        model.tensorParallelRefused(tensorParallelSize).or(() -> model.blockScaledExpertsRefused(tensorParallelSize,
                expertParallelSize)).ifPresent(why -> {
            throw new IllegalArgumentException("the engine would not start at tensor-parallel size " + tensorParallelSize
                    + ": " + why);
        });
        acceptanceRates = List.copyOf(acceptanceRates);
        if (acceptanceRates.isEmpty() || acceptanceRates.stream().anyMatch(p -> !(p >= 0 && p <= 1))) {
            throw new IllegalArgumentException("acceptanceRates must be one or more probabilities in [0, 1], got "
                    + acceptanceRates);
        }
        if (!(gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1)) {
            throw new IllegalArgumentException("gpuMemoryUtilization must be in (0, 1], got " + gpuMemoryUtilization);
        }
        ignoredFlags = List.copyOf(ignoredFlags);
        Objects.requireNonNull(engine, "engine");
        if (stateSlots < 0 || stateSlots > 0 && dialect != SimDialect.SGLANG) {
            throw new IllegalArgumentException("stateSlots is >= 0, and > 0 only for SGLang's mamba pool, got " + stateSlots);
        }
        double needed = sequenceBytes(model, maxModelLen, tensorParallelSize, stateSlots);
        if (kvCacheMemoryBytes < 0 || maxTotalTokens < 0) {
            throw new IllegalArgumentException("kvCacheMemoryBytes and maxTotalTokens are >= 0, got " + kvCacheMemoryBytes
                    + " and " + maxTotalTokens);
        }
        if (kvCacheMemoryBytes > 0) {
            // vLLM sizes the cache as asked, so the GPU must hold it beside the weights and what vLLM keeps beside them
            double perGpu = (model.weightBytes() + encoderBytes(model, languageModelOnly)) / tensorParallelSize
                    + reservePerGpuBytes(dialect, maxNumBatchedTokens) + kvCacheMemoryBytes;
            if (perGpu > gpu.memoryBytes()) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "the engine would run out of memory:"
                        + " --kv-cache-memory-bytes asks %.2f GiB of KV cache a GPU beside %.2f GiB of weights and what"
                        + " vLLM keeps beside them, %.2f GiB in all, on a GPU of %.2f GiB; lower it",
                        kvCacheMemoryBytes / GIB, perGpu - kvCacheMemoryBytes, perGpu / GIB, gpu.memoryBytes() / GIB));
            }
            if (kvCacheMemoryBytes * tensorParallelSize < needed) {
                // vLLM's own check: "To serve at least one request with the models's max seq len ..."
                throw new IllegalArgumentException(String.format(Locale.ROOT, "the KV cache does not fit one sequence of"
                        + " max model length %d: it needs %.2f GiB but --kv-cache-memory-bytes gives %.2f GiB over %d"
                        + " GPU(s); raise it or lower the max model length", maxModelLen, needed / GIB,
                        kvCacheMemoryBytes * tensorParallelSize / GIB, tensorParallelSize));
            }
        }
        double pool = poolBytes(dialect, model, gpu, gpuMemoryUtilization, tensorParallelSize, maxNumBatchedTokens,
                languageModelOnly, stateSlots, maxNumSeqs, speculativeTokens, kvCacheMemoryBytes);
        if (pool < needed) {
            // every term of the subtraction named, so that a reader can redo it; vLLM's reserve is the twin's estimate
            double reserve = reservePerGpuBytes(dialect, maxNumBatchedTokens) * tensorParallelSize;
            double encoder = encoderBytes(model, languageModelOnly);
            double states = reservedStateBytes(model, stateSlots, maxNumSeqs, speculativeTokens);
            double startup = sglangStartupBytes(dialect, tensorParallelSize);
            // with nothing left before any KV cache, a shorter context cannot help: the model needs more memory
            String outcome = pool > 0 ? String.format(Locale.ROOT, "leaves %.2f GiB; lower the max model length or raise"
                    + " the memory fraction", pool / GIB)
                    : String.format(Locale.ROOT, "leaves nothing, %.2f GiB short before any KV cache; raise the memory"
                    + " fraction, or serve the model on more GPUs (a larger tensor-parallel size) or from a smaller or"
                    + " quantised checkpoint", -pool / GIB);
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "the KV cache does not fit one sequence of max model length %d: it needs %.2f GiB but %.0f%% of "
                            + "%d x %.2f GiB%s less %.2f GiB of weights%s%s%s %s",
                    maxModelLen, needed / GIB, gpuMemoryUtilization * 100, tensorParallelSize, gpu.memoryBytes() / GIB,
                    startup > 0 ? String.format(Locale.ROOT, " (less %.2f GiB a GPU that CUDA and torch.distributed"
                            + " take before SGLang measures it)", startup / GIB) : "",
                    model.weightBytes() / GIB,
                    encoder > 0 ? String.format(Locale.ROOT, ", %.2f GiB of vision encoder", encoder / GIB) : "",
                    states > 0 ? String.format(Locale.ROOT, ", %.2f GiB of state slots", states / GIB) : "",
                    reserve > 0 ? String.format(Locale.ROOT, " and %.2f GiB that vLLM keeps beside weights and KV"
                            + " cache (the twin's estimate from one model's profile: vLLM's own depends on the model and"
                            + " its batch limits, and a real vLLM may leave more)", reserve / GIB) : "",
                    outcome));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The name the API answers to and reports: the first of {@code --served-model-name}'s names, else the model's.
     */
    public String servedModel() {
        return servedNames.isEmpty() ? model.name() : servedNames.get(0);
    }

    /** Whether a request's {@code model} names the served model: one of {@code --served-model-name}'s, else the model's. */
    public boolean servesModel(String name) {
        return servedNames.isEmpty() ? model.name().equals(name) : servedNames.contains(name);
    }

    /** The simulated engine's own flag naming a model's {@code config.json} (or its folder), in every dialect. */
    public static final String SIM_MODEL_CONFIG = "--sim-model-config";

    /**
     * The simulated engine's own flag setting its draft tokens' acceptance, one rate per draft position (each given that
     * the earlier ones were accepted), in every dialect.
     */
    public static final String SIM_ACCEPTANCE_RATE = "--sim-acceptance-rate";

    /**
     * The draft acceptance a {@link #SIM_ACCEPTANCE_RATE} value gives: one probability in [0, 1] per draft position,
     * separated by commas, the last for the positions after it.
     *
     * @throws IllegalArgumentException saying what was expected
     */
    public static List<Double> acceptanceRates(String text) {
        List<Double> rates = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            double p;
            try {
                p = Double.parseDouble(part.strip());
            } catch (NumberFormatException e) {
                p = Double.NaN;
            }
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("a probability in [0, 1], or one per draft position separated by"
                        + " commas, e.g. 0.7,0.5,0.3; got " + text);
            }
            rates.add(p);
        }
        return List.copyOf(rates);
    }

    /** The simulated engine's own flag naming vLLM's kernel for MXFP4 experts ({@link Mxfp4Kernel}), in every dialect. */
    public static final String SIM_MXFP4_KERNEL = "--sim-mxfp4-kernel";

    /**
     * The simulated engine's flags for what vLLM reads from its environment ({@code NAME=VALUE} entries, the engine's
     * as a study or {@code --engine-env} gives them): {@code VLLM_MXFP4_USE_MARLIN}, which vLLM reads as an integer
     * ({@code envs.py}, {@code maybe_convert_bool}: {@code bool(int(value))}, an empty value as unset) and, when true,
     * runs MXFP4 experts with Marlin whatever the GPU ({@code get_mxfp4_backend}). Nothing for SGLang, which reads no
     * such variable.
     *
     * @throws IllegalArgumentException for a value vLLM's {@code int()} refuses, as vLLM would fail to start
     */
    public static List<String> flagsFromEnvironment(SimDialect dialect, List<String> env) {
        if (dialect == SimDialect.SGLANG) {
            return List.of();
        }
        List<String> flags = new ArrayList<>();
        for (String entry : env) {
            int eq = entry.indexOf('=');
            if (eq < 0 || !entry.substring(0, eq).equals(VLLM_MXFP4_USE_MARLIN)) {
                continue;
            }
            String value = entry.substring(eq + 1).strip();
            if (value.isEmpty()) {
                continue; // vLLM reads an empty value as unset
            }
            int on;
            try {
                on = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(VLLM_MXFP4_USE_MARLIN + "=" + value + ": vLLM reads it as an integer"
                        + " (0 or 1) and would not start; expected VLLM_MXFP4_USE_MARLIN=1");
            }
            if (on != 0) {
                flags.add(SIM_MXFP4_KERNEL + "=marlin");
            }
        }
        return flags;
    }

    private static final String VLLM_MXFP4_USE_MARLIN = "VLLM_MXFP4_USE_MARLIN";

    /** A record whose string form, logged at start, must not carry the API key. */
    @Override
    public String toString() {
        return "SimParams[dialect=" + dialect + ", model=" + model.name() + ", gpu=" + gpu.name() + ", maxModelLen="
                + maxModelLen + ", maxNumSeqs=" + maxNumSeqs + ", maxNumBatchedTokens=" + maxNumBatchedTokens
                + ", prefixCaching=" + prefixCaching + ", speculative=" + speculativeMethod + ":" + speculativeTokens
                + ", apiKey=" + (apiKey == null ? "none" : "***") + ", adminApiKey=" + (adminApiKey == null ? "none" : "***")
                + "]";
    }

    /** These settings on another engine profile (what {@code sim calibrate} varies). */
    public SimParams withEngine(EngineProfile newEngine) {
        return copy(acceptanceRates, newEngine, lora);
    }

    /** These settings serving {@code newLora}'s adapters. */
    public SimParams withLora(LoraParams newLora) {
        return copy(acceptanceRates, engine, newLora);
    }

    /** These settings with one draft acceptance rate for every position; unchanged without speculative decoding. */
    public SimParams withAcceptanceRate(double newAcceptanceRate) {
        return speculativeTokens == 0 ? this : copy(List.of(newAcceptanceRate), engine, lora);
    }

    /** These settings with the three values the withers change: the one home of their copy. */
    private SimParams copy(List<Double> newAcceptanceRates, EngineProfile newEngine, LoraParams newLora) {
        return new SimParams(dialect, model, gpu, maxModelLen, maxNumSeqs, maxNumBatchedTokens, prefixCaching,
                speculativeMethod, speculativeTokens, newAcceptanceRates, performanceMode, languageModelOnly,
                reasoningParser, gpuMemoryUtilization, tensorParallelSize, expertParallelSize, ignoredFlags, apiKey,
                newEngine, stateSlots, newLora, servedNames, adminApiKey, modelSource, overlapScheduleDisabled,
                scheduleConservativeness, chunkedPrefill, longPrefillTokenThreshold, mixedChunk, kvCacheMemoryBytes,
                maxTotalTokens);
    }

    /**
     * Whether the engine prepares the next step on the CPU while the GPU runs this one, so that a step takes the longer
     * of its host work and its GPU work instead of their sum: SGLang's overlap scheduler, on by default, which SGLang
     * 0.5.9 turns off for a hybrid linear-attention model whose radix cache is on without speculative decoding
     * ({@code server_args.py}, {@code _handle_mamba_radix_cache}: "Disabling overlap schedule since mamba no_buffer is
     * not compatible with overlap schedule") — the reference study's SGLang runs, so its fitted host time is the
     * serial one. vLLM schedules asynchronously by default since 0.14 (its release notes), the reference's 0.17.1 too,
     * but the host time fitted on that reference is what the overlap left: hidden as SGLang's is, the refit puts 408 µs
     * a sequence and the held-out 16 req/s blocks 798% off (docs/simulated-engine.md), so vLLM's stays serial. SGLang's
     * {@code --disable-overlap-schedule} turns its overlap off.
     */
    public boolean overlapsHostWork() {
        return dialect == SimDialect.SGLANG && !overlapScheduleDisabled
                && !(EngineDefaults.hybrid(model) && prefixCaching && speculativeMethod == null);
    }

    /**
     * Whether prefill and decode run in separate steps, a prefill step whenever one can be formed: SGLang's scheduler
     * ({@code managers/scheduler.py}, {@code get_next_batch_to_run}: "Run prefill first if possible", decode otherwise),
     * while vLLM V1 schedules the running requests' decode tokens first and fills the rest of the step's budget with
     * prefill chunks. SGLang's {@code --enable-mixed-chunk} does as vLLM does: its running batch joins the prefill batch
     * ({@code mix_with_running}), each of its requests taking one token of the prefill's budget ({@code PrefillAdder}'s
     * {@code mixed_with_decode_tokens}, {@code schedule_policy.py}).
     */
    public boolean prefillsApart() {
        return dialect == SimDialect.SGLANG && !mixedChunk;
    }

    /** The acceptance probability of draft position {@code position} (0-based), given the ones before were accepted. */
    public double acceptanceRate(int position) {
        return acceptanceRates.get(Math.min(position, acceptanceRates.size() - 1));
    }

    /**
     * What an engine with these settings logs as it starts, in real or virtual time: one line per flag it does not
     * model, then the KV pool and the engine profile.
     */
    public List<String> startLog() {
        List<String> lines = new ArrayList<>();
        for (String flag : ignoredFlags) {
            lines.add("simulated engine ignores flag " + flag + ": it is not modelled");
        }
        lines.add("model " + model.name() + ": config " + modelSource);
        if (model.blockScaledFp8()) {
            // why the same bytes take longer than a per-tensor FP8 checkpoint's, or why not
            lines.add(gpu.hopper() ? String.format(Locale.ROOT, "FP8 weights in 128 x 128 blocks: each layer product"
                    + " streams them at %.0f%% of the bandwidth beside %.1f us, as such products took on an H100",
                    StepCostModel.BLOCK_FP8_PRODUCT_READ_EFFICIENCY * 100, StepCostModel.BLOCK_FP8_GEMM_FIXED_NANOS / 1e3)
                    : "FP8 weights in 128 x 128 blocks: run as a scale per tensor runs, since no block-scaled product was"
                            + " measured on " + gpu.name());
        }
        if (speculativeTokens > 0) {
            // the acceptance is the data's, not the engine's: say what the rehearsal assumes
            lines.add(String.format(Locale.ROOT, "drafts of %d token%s a step, each position's accepted at %s given the"
                    + " earlier ones' (set it with %s for your data)", speculativeTokens, speculativeTokens == 1 ? "" : "s",
                    acceptanceRates.stream().map(p -> String.format(Locale.ROOT, "%.3f", p))
                            .collect(java.util.stream.Collectors.joining(", ")), SIM_ACCEPTANCE_RATE));
        }
        if (expertParallelSize > 1) {
            lines.add(model.experts().layers() == 0 ? "expert parallelism has no experts to divide: " + model.name()
                    + " is dense" : String.format(Locale.ROOT, "experts divided among %d groups of %d GPU%s, %.1f a group",
                    expertParallelSize, tensorParallelSize / expertParallelSize,
                    tensorParallelSize / expertParallelSize == 1 ? "" : "s",
                    (double) model.experts().count() / expertParallelSize));
        }
        if (maxModelLen < model.context().tokens(dialect)) {
            lines.add(String.format(Locale.ROOT, "requests of at most %d tokens (the model's context: %d, %s)",
                    maxModelLen, model.context().tokens(dialect), model.context().rule(dialect)));
        }
        // what the engine keeps of the layers that attend part of the context (ModelProfile.Window)
        ModelProfile.Window window = model.window();
        if (window.tokens() > 0) {
            lines.add(String.format(Locale.ROOT, "%s layers attend %s; the cache keeps %s of them",
                    switch (window.reach()) {
                        case LAST -> "sliding-window";
                        case CHUNK -> "chunked-attention";
                        case TOP_K -> "sparse-attention";
                    },
                    switch (window.reach()) {
                        case LAST -> "the last " + window.tokens() + " tokens";
                        case CHUNK -> "their own chunk of " + window.tokens() + " tokens";
                        case TOP_K -> "the " + window.tokens() + " earlier tokens their indexer scores highest";
                    },
                    window.keepsEveryToken() ? "every token" : "at most " + window.tokens() + " tokens"));
        }
        // why a pool holds fewer tokens than its bytes over one copy's: the engines' copies of the cache
        if (kvCopies() > 1) {
            lines.add(model.kvSplit() == 1
                    ? String.format(Locale.ROOT, "every GPU keeps the whole latent KV cache: %d copies", kvCopies())
                    : String.format(Locale.ROOT, "each GPU keeps one of the model's %d KV heads whole, as the engines"
                            + " do with more GPUs than KV heads: the KV cache held %d times over", model.kvSplit(),
                            kvCopies()));
        }
        // the weights as the engine holds them (vLLM's MXFP4 kernels pad them): what the KV pool is left after
        lines.add(String.format(Locale.ROOT, "%s flags, weights %.1f GiB, KV pool %.1f GiB%s, at most %d running, %d tokens"
                        + " a step, prefix caching %s, engine profile %s", dialect, model.weightBytes() / GIB, kvPoolBytes() / GIB,
                stateSlots > 0 ? String.format(Locale.ROOT, " (and %d linear-attention states, %.1f GiB)", stateSlots,
                        stateSlots * model.stateBytesPerSequence() / GIB) : "",
                maxNumSeqs, maxNumBatchedTokens, prefixCaching ? "on" : "off", engine.describe()));
        return lines;
    }

    /** The reasoning parser, empty when none was configured. */
    public Optional<String> reasoning() {
        return Optional.ofNullable(reasoningParser);
    }

    /**
     * Bytes available for the KV cache (and per-sequence state, unless it has its own pool) over all GPUs: the memory
     * fraction of every GPU, less the weights (split over the GPUs) and the vision encoder unless
     * {@link #languageModelOnly()}; in vLLM's dialect also less {@link #vllmReserveBytes} per GPU, since its
     * fraction is the whole budget, while SGLang's covers weights and KV cache only and its activations come on top,
     * and is a fraction of what CUDA and torch.distributed left ({@link #SGLANG_CONTEXT_BYTES}); with SGLang's mamba
     * pool ({@link #stateSlots()}) also less that pool and, with speculative decoding, one state per draft token of
     * every running request ({@code handle_max_mamba_cache}).
     */
    public double kvPoolBytes() {
        if (kvCacheMemoryBytes > 0) {
            return kvCacheMemoryBytes * tensorParallelSize;
        }
        double profiled = memoryLeftBytes(dialect, model, gpu, gpuMemoryUtilization, tensorParallelSize,
                maxNumBatchedTokens, languageModelOnly)
                - reservedStateBytes(model, stateSlots, maxNumSeqs, speculativeTokens);
        return maxTotalTokens > 0 ? Math.min(profiled, maxTotalTokens * sglangPoolTokenBytes(model, tensorParallelSize))
                : profiled;
    }

    /**
     * Bytes one token of SGLang's pool takes over the GPUs: its full layers' KV, and its sliding-window layers' in a
     * pool of their own {@link EngineDefaults#SGLANG_SWA_FULL_TOKENS_RATIO} of the full one's tokens, or, for an
     * architecture SGLang keeps in one pool, beside the full layers' for every token; each copy of the cache.
     */
    static double sglangPoolTokenBytes(ModelProfile model, int tp) {
        double swaShare = model.window().keepsEveryToken() ? 1 : EngineDefaults.SGLANG_SWA_FULL_TOKENS_RATIO;
        return (model.kvBytesPerToken() + swaShare * model.window().kvBytesPerToken()) * model.kvCopies(tp);
    }

    /** Copies of the KV cache the tensor-parallel ranks keep ({@link ModelProfile#kvCopies}): 1 on one GPU. */
    public int kvCopies() {
        return model.kvCopies(tensorParallelSize);
    }

    /** Bytes of per-sequence state a running request holds in the KV pool: 0 where SGLang keeps it in its own pool. */
    public double pooledStateBytesPerSequence() {
        return stateSlots > 0 ? 0 : model.stateBytesPerSequence();
    }

    /**
     * Bytes one sequence of {@code tokens} holds over every GPU: its KV, in each copy the engine keeps ({@link
     * ModelProfile#kvCopies}), and its linear-attention state where no pool of states holds it ({@code stateSlots} 0).
     */
    private static double sequenceBytes(ModelProfile model, long tokens, int tp, int stateSlots) {
        return (stateSlots > 0 ? 0 : model.stateBytesPerSequence()) + model.kvBytes(tokens) * model.kvCopies(tp);
    }

    /**
     * Bytes of the KV cache over every GPU: vLLM's {@code --kv-cache-memory-bytes} a GPU where given, else what the memory
     * fraction leaves beside weights, the engine's reserve and the state slots.
     */
    private static double poolBytes(SimDialect dialect, ModelProfile model, GpuProfile gpu, double fraction, int tp,
                                    int maxNumBatchedTokens, boolean languageModelOnly, int stateSlots, int maxRunning,
                                    int speculativeTokens, double kvCacheMemoryBytes) {
        return kvCacheMemoryBytes > 0 ? kvCacheMemoryBytes * tp
                : memoryLeftBytes(dialect, model, gpu, fraction, tp, maxNumBatchedTokens, languageModelOnly)
                - reservedStateBytes(model, stateSlots, maxRunning, speculativeTokens);
    }

    private static double reservedStateBytes(ModelProfile model, int stateSlots, int maxRunning, int speculativeTokens) {
        if (stateSlots == 0) {
            return 0;
        }
        return model.stateBytesPerSequence() * (stateSlots + (speculativeTokens > 0 ? (long) maxRunning * (speculativeTokens + 1) : 0));
    }

    /**
     * vLLM's memory per GPU beside weights and KV cache, bytes: what is not PyTorch's ({@link #VLLM_NON_TORCH_BYTES}),
     * and the activation peak of its profiling run at a token budget a step.
     */
    public static double vllmReserveBytes(int maxNumBatchedTokens) {
        return VLLM_NON_TORCH_BYTES + VLLM_ACTIVATION_PEAK_BYTES * maxNumBatchedTokens / VLLM_PROFILED_TOKENS;
    }

    /** Memory the weights leave to the KV cache and any state pool, bytes over all GPUs. */
    private static double memoryLeftBytes(SimDialect dialect, ModelProfile model, GpuProfile gpu, double fraction, int tp,
                                          int maxNumBatchedTokens, boolean lmOnly) {
        return tp * ((gpu.memoryBytes() - sglangStartupBytes(dialect, tp)) * fraction
                - reservePerGpuBytes(dialect, maxNumBatchedTokens))
                - model.weightBytes() - encoderBytes(model, lmOnly);
    }

    /**
     * What CUDA and torch.distributed take per GPU before SGLang measures the memory its fraction is taken of, bytes
     * ({@link #SGLANG_CONTEXT_BYTES}, {@link #SGLANG_DISTRIBUTED_BYTES}); 0 for vLLM, whose fraction is of the whole
     * GPU.
     */
    private static double sglangStartupBytes(SimDialect dialect, int tp) {
        return dialect != SimDialect.SGLANG ? 0 : SGLANG_CONTEXT_BYTES + (tp > 1 ? SGLANG_DISTRIBUTED_BYTES : 0);
    }

    /**
     * What an engine keeps per GPU beside weights and KV cache inside its memory fraction, bytes: vLLM's reserve; none
     * for SGLang, whose fraction covers weights and KV cache only.
     */
    private static double reservePerGpuBytes(SimDialect dialect, int maxNumBatchedTokens) {
        return dialect == SimDialect.SGLANG ? 0 : vllmReserveBytes(maxNumBatchedTokens);
    }

    /** The vision encoder's share of the memory, bytes: none when only the language model is loaded. */
    private static double encoderBytes(ModelProfile model, boolean languageModelOnly) {
        return languageModelOnly ? 0 : model.nonLanguageBytes();
    }

    /**
     * Reads an engine's flags in a {@link SimDialect}: vLLM's, SGLang's, or the simulated engine's own (vLLM's), each
     * with the simulated engine's {@code --sim-acceptance-rate=P[,P2,...]}, which overrides the draft acceptance rate,
     * one per draft position, the last for the positions after it. The model is imitated
     * with the profile its name picks ({@link ModelProfile#forModel}), or with one read from vLLM's
     * {@code --hf-config-path} ({@link ModelProfile#fromConfig}), on one
     * {@link GpuProfile#h100Sxm80gb H100} per tensor-parallel rank (another GPU with
     * {@link #fromFlags(SimDialect, String, List, GpuProfile)}).
     *
     * <p>vLLM flags: {@code --max-model-len}, {@code --max-num-seqs}, {@code --max-num-batched-tokens},
     * {@code --enable-prefix-caching} / {@code --no-enable-prefix-caching} (by default on, but off for hybrid-attention
     * models such as Qwen3.5, as vLLM does), {@code --speculative-config} (JSON with {@code method} and
     * {@code num_speculative_tokens}), {@code --performance-mode}, {@code --language-model-only},
     * {@code --reasoning-parser}, {@code --gpu-memory-utilization}, {@code --tensor-parallel-size} / {@code -tp},
     * {@code --api-key} (then {@code /v1/*} requests without {@code Authorization: Bearer KEY} get 401, as vLLM's do).
     *
     * <p>SGLang flags: {@code --context-length}, {@code --max-running-requests}, {@code --chunked-prefill-size},
     * {@code --disable-radix-cache} (the radix prefix cache is on by default), {@code --reasoning-parser}, {@code --api-key},
     * {@code --mem-fraction-static}, {@code --tp} / {@code --tp-size}, {@code --speculative-algorithm} with
     * {@code --speculative-num-steps} or {@code --speculative-num-draft-tokens} (a chain of N draft tokens
     * including the root proposes N-1; default 3 steps).
     *
     * <p>What a flag leaves open is what the engine derives on that GPU ({@link EngineDefaults}): vLLM's batch limits
     * (1024 sequences and 8192 tokens a step from 70 GiB, not on an A100; else 256 and 2048), SGLang's chunked-prefill
     * size, memory fraction and most running requests.
     *
     * <p>Draft acceptance defaults: {@link #MTP_ACCEPTANCE} for MTP / NEXTN, {@link #EAGLE_ACCEPTANCE} for
     * EAGLE, {@link #NGRAM_ACCEPTANCE} for n-gram, {@link #OTHER_ACCEPTANCE} otherwise.
     *
     * @param dialect whose flags these are
     * @param model   the served model id
     * @param flags   {@code --name=value}, {@code --name value} or {@code --name} strings
     * @throws IllegalArgumentException naming the flag and what was expected, for a malformed flag or value,
     *                                  or when the KV cache would not hold one sequence
     */
    public static SimParams fromFlags(SimDialect dialect, String model, List<String> flags) {
        return fromFlags(dialect, model, flags, GpuProfile.h100Sxm80gb());
    }

    /**
     * Settings from the engine's flags, as {@link #fromFlags(SimDialect, String, List)}, on {@code gpu} (per
     * tensor-parallel rank) instead of an H100.
     */
    public static SimParams fromFlags(SimDialect dialect, String model, List<String> flags, GpuProfile gpu) {
        Objects.requireNonNull(gpu, "gpu");
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("model must be a non-blank model id, got \"" + model + "\"");
        }
        boolean sglang = dialect == SimDialect.SGLANG;
        Builder b = new Builder();
        Map<String, BiConsumer<Builder, Flag>> modelled = sglang ? Builder.SGLANG_FLAGS : Builder.VLLM_FLAGS;
        String engine = dialect.catalogEngine();
        FlagCatalog newest = FlagCatalog.forStudy(engine, "");
        // vLLM folds --json-flag.key value into --json-flag's JSON before it reads anything (DottedJsonFlags)
        for (String text : sglang ? flags : DottedJsonFlags.folded(flags)) {
            // the real engine's argparse reads an alias or an abbreviation as the one flag it names
            Flag flag = newest.resolved(Flag.parse(text).orElseThrow(() -> new IllegalArgumentException(Flag.problem(text))));
            boolean known = b.apply(modelled, flag) || b.modelConfig(flag) || b.mxfp4Kernel(flag) || b.acceptance(flag);
            if (!known) {
                // a misspelt tuning flag left silently without effect would make its variant the baseline; the real
                // engine's parser refuses what none of its known versions accepts, and so does the simulation
                Optional<String> refused = FlagCatalog.refusedByEveryVersion(engine, flag);
                if (refused.isPresent()) {
                    throw new IllegalArgumentException(refused.get() + " (the " + dialect.engineName()
                            + " server refuses it too)");
                }
                b.ignored.add(flag.toArg());
            }
        }
        SimDialect served = sglang ? SimDialect.SGLANG : SimDialect.VLLM;
        return b.build(served, b.modelProfile(model, served), gpu);
    }

    /** Mutable accumulator of flag values while parsing; defaults are the engine's. */
    private static final class Builder {
        String hfConfigPath;
        /** {@code --sim-mxfp4-kernel}; null for the kernel vLLM picks on the GPU. */
        Mxfp4Kernel mxfp4Kernel;
        /** {@code --quantization}, in lower case; null when not given ({@link QuantizationArgument}). */
        String quantization;
        /** The {@code --quantization} flag as given, for the list of flags the twin ignores. */
        Flag quantizationFlag;
        boolean fp8KvCache;
        /** {@link #maxModelLen} for vLLM's {@code --max-model-len auto}: fitted to the KV cache ({@link #autoFitMaxModelLen}). */
        static final int AUTO_MAX_MODEL_LEN = -1;
        /**
         * 0 until a flag sets it: then the model's native context, as vLLM and SGLang derive it; {@link
         * #AUTO_MAX_MODEL_LEN} until then for vLLM's {@code auto}.
         */
        int maxModelLen;
        /** 0 until a flag sets it: then the engine's default ({@link EngineDefaults}). */
        int maxNumSeqs;
        /** 0 until a flag sets it: then the engine's default. */
        int maxNumBatchedTokens;
        /** null until a flag sets it: then the engine's default. */
        Boolean prefixCaching;
        /** The native MTP layers the model's checkpoint ships ({@link ModelLookup.Found#mtpLayers}). */
        int mtpLayers;
        /** Its whole-context layers' KV heads where fewer than its sliding ones' ({@link ModelLookup.Found}). */
        int fewerWholeLayerKvHeads;
        /** vLLM's {@code --hf-overrides}, applied to the model's config before it is read ({@link ConfigOverrides}). */
        ConfigOverrides configOverrides = ConfigOverrides.NONE;
        String specMethod;
        int specTokens;
        int sglangSpecSteps = -1;
        int sglangDraftTokens = -1;
        List<Double> acceptance;
        PerformanceMode mode = PerformanceMode.BALANCED;
        boolean languageModelOnly;
        /** The ModelOpt FP8 checkpoint the model is, {@code null} for another. */
        ModelOpt.Checkpoint modelOpt;
        /** {@code --kv-cache-dtype} as given, {@code null} when not. */
        String kvCacheDtype;
        /** vLLM's {@code --disable-hybrid-kv-cache-manager}. */
        boolean noHybridKvCacheManager;
        /** SGLang's {@code --disable-hybrid-swa-memory}. */
        boolean noHybridSwaMemory;
        /** SGLang's {@code --disable-overlap-schedule}. */
        boolean noOverlapSchedule;
        /** SGLang's {@code --enable-mixed-chunk}. */
        boolean mixedChunk;
        /** vLLM's {@code --kv-cache-memory-bytes}, 0 unless given. */
        double kvCacheMemoryBytes;
        /** SGLang's {@code --max-total-tokens}, 0 unless given. */
        long maxTotalTokens;
        /** SGLang's {@code --schedule-conservativeness}. */
        double scheduleConservativeness = 1;
        /** Off with vLLM's {@code --no-enable-chunked-prefill} or SGLang's {@code --chunked-prefill-size} of 0 or less. */
        boolean chunkedPrefill = true;
        /** SGLang's {@code --max-prefill-tokens}: what a prefill batch takes without chunked prefill; 0 for its default. */
        int maxPrefillTokens;
        /** vLLM's {@code --long-prefill-token-threshold}, 0 unless given. */
        int longPrefillTokenThreshold;
        /** vLLM's {@code --max-num-partial-prefills}, 1 unless given. */
        int maxNumPartialPrefills = 1;

        /** SGLang's {@code --enable-multimodal}. */
        boolean enableMultimodal;
        /** Whether SGLang builds the model's vision encoder only with {@code --enable-multimodal}. */
        boolean sglangVisionOnRequest;
        String reasoningParser;
        String apiKey;
        String adminApiKey;
        /** 0 until a flag sets it: then the engine's default. */
        double memoryFraction;
        int tp = 1;
        /** vLLM's {@code --enable-expert-parallel}. */
        boolean enableExpertParallel;
        /** SGLang's {@code --ep-size}; 1 until a flag sets it. */
        int epSize = 1;
        final List<String> ignored = new ArrayList<>();
        boolean enableLora;
        final List<String> loraNames = new ArrayList<>();
        final List<String> servedNames = new ArrayList<>();
        /** 0 until a flag sets them: then the engine's default. */
        int maxLoras;
        int maxLoraRank;

        /** Where the model's config was read ({@link ModelLookup.Found#source()}), once {@link #modelProfile} ran. */
        String modelSource;

        /**
         * vLLM's cap on one request's prompt tokens in a step: {@code --long-prefill-token-threshold}, or, left at 0 with
         * {@code --max-num-partial-prefills} above 1 and chunked prefill on, 4% of the max model length ({@code
         * SchedulerConfig.__post_init__}, {@code vllm/config/scheduler.py}; the V1 scheduler caps each request's new
         * tokens at it, {@code v1/core/sched/scheduler.py}, v0.17.1 and v0.26.0); SGLang has none.
         */
        int longPrefillThreshold(SimDialect dialect) {
            if (dialect == SimDialect.SGLANG) {
                return 0;
            }
            return longPrefillTokenThreshold == 0 && maxNumPartialPrefills > 1 && chunkedPrefill
                    ? (int) (maxModelLen * 0.04) : longPrefillTokenThreshold;
        }

        /**
         * The model's profile ({@link ModelLookup}: {@code --hf-config-path} or {@code --sim-model-config}, a built-in
         * profile, the model's folder, the Hugging Face cache; refused when found nowhere; {@code --hf-overrides}
         * applied to its config), with {@code --quantization}
         * read against its checkpoint ({@link QuantizationArgument}) and {@code --kv-cache-dtype fp8} applied.
         */
        ModelProfile modelProfile(String model, SimDialect dialect) {
            ModelLookup.Found found = ModelLookup.find(model, hfConfigPath, configOverrides, System.getenv());
            modelSource = found.source();
            modelOpt = found.modelOpt().orElse(null);
            sglangVisionOnRequest = found.sglangVisionOnRequest();
            mtpLayers = found.mtpLayers();
            fewerWholeLayerKvHeads = found.fewerWholeLayerKvHeads();
            ModelProfile profile = found.profile();
            switch (QuantizationArgument.of(dialect, found.quantisation(), quantization)) {
                case FP8_ONLINE -> profile = profile.withFp8Weights();
                case IGNORED -> ignored.add(quantizationFlag.toArg());
                case CHECKPOINT -> {
                }
            }
            return fp8KvCache ? profile.withFp8KvCache() : profile;
        }

        /** vLLM's flags that the simulation models, each with what it sets. */
        static final Map<String, BiConsumer<Builder, Flag>> VLLM_FLAGS = modelled(EngineFlags.VLLM, Map.ofEntries(
                Map.entry(EngineFlags.VLLM_SPECULATIVE_CONFIG, Builder::speculativeConfig),
                Map.entry("--performance-mode", (b, f) -> b.mode = performanceMode(f)),
                Map.entry("--language-model-only", (b, f) -> b.languageModelOnly = bool(f)),
                Map.entry("--enable-chunked-prefill", (b, f) -> b.chunkedPrefill = bool(f)),
                Map.entry("--long-prefill-token-threshold", (b, f) -> b.longPrefillTokenThreshold = nonNegativeInt(f)),
                Map.entry("--max-num-partial-prefills", (b, f) -> b.maxNumPartialPrefills = positiveInt(f)),
                Map.entry("--no-enable-chunked-prefill", (b, f) -> b.chunkedPrefill = !bool(f)),
                Map.entry("--disable-hybrid-kv-cache-manager", (b, f) -> b.noHybridKvCacheManager = bool(f)),
                Map.entry("--kv-cache-memory-bytes", (b, f) -> b.kvCacheMemoryBytes = vllmHumanReadable(f, "bytes",
                        "40G or 42949672960", Long.MAX_VALUE)),
                Map.entry("--enable-expert-parallel", (b, f) -> b.enableExpertParallel = bool(f)),
                Map.entry("--no-enable-expert-parallel", (b, f) -> b.enableExpertParallel = !bool(f)),
                Map.entry("--hf-config-path", (b, f) -> b.hfConfigPath = text(f)),
                Map.entry("--hf-overrides", (b, f) -> b.configOverrides = ConfigOverrides.vllm(text(f))),
                Map.entry("--enable-lora", (b, f) -> b.enableLora = bool(f)),
                Map.entry("--lora-modules", (b, f) -> b.loraNames.addAll(loraNames(f))),
                Map.entry("--max-loras", (b, f) -> b.maxLoras = positiveInt(f)),
                Map.entry("--max-lora-rank", (b, f) -> b.maxLoraRank = positiveInt(f))));

        /** SGLang's flags that the simulation models, each with what it sets. */
        static final Map<String, BiConsumer<Builder, Flag>> SGLANG_FLAGS = modelled(EngineFlags.SGLANG, Map.ofEntries(
                Map.entry("--ep-size", (b, f) -> b.epSize = positiveInt(f)),
                Map.entry("--disable-hybrid-swa-memory", (b, f) -> b.noHybridSwaMemory = bool(f)),
                Map.entry("--enable-multimodal", (b, f) -> b.enableMultimodal = bool(f)),
                Map.entry("--disable-overlap-schedule", (b, f) -> b.noOverlapSchedule = bool(f)),
                Map.entry("--enable-mixed-chunk", (b, f) -> b.mixedChunk = bool(f)),
                Map.entry("--max-total-tokens", (b, f) -> b.maxTotalTokens = positiveInt(f)),
                Map.entry("--schedule-conservativeness", (b, f) -> b.scheduleConservativeness = nonNegative(f)),
                Map.entry("--max-prefill-tokens", (b, f) -> b.maxPrefillTokens = positiveInt(f)),
                Map.entry(EngineFlags.SGLANG_SPECULATIVE_ALGORITHM, (b, f) -> b.specMethod = text(f).toLowerCase(Locale.ROOT)),
                Map.entry(EngineFlags.SGLANG_SPECULATIVE_NUM_STEPS, (b, f) -> b.sglangSpecSteps = positiveInt(f)),
                Map.entry(EngineFlags.SGLANG_SPECULATIVE_NUM_DRAFT_TOKENS, (b, f) -> b.sglangDraftTokens = positiveInt(f)),
                // the simulation drafts a chain, which is EAGLE's tree with one branch per step, NGRAM's of breadth 1
                Map.entry(EngineFlags.SGLANG_SPECULATIVE_EAGLE_TOPK, Builder::chainOnly),
                Map.entry(EngineFlags.SGLANG_SPECULATIVE_NGRAM_MAX_BFS_BREADTH, Builder::chainOnly),
                Map.entry("--lora-paths", (b, f) -> b.loraNames.addAll(loraNames(f))),
                Map.entry(EngineFlags.SGLANG_ADMIN_API_KEY, (b, f) -> b.adminApiKey = text(f)),
                Map.entry("--max-loras-per-batch", (b, f) -> b.maxLoras = positiveInt(f)),
                Map.entry("--max-lora-rank", (b, f) -> b.maxLoraRank = positiveInt(f))));

        /**
         * The expert-parallel groups the flags ask for: vLLM's {@code --enable-expert-parallel} makes each tensor-parallel
         * GPU a group of its own ("The EP size is automatically calculated as EP_SIZE = TP_SIZE x DP_SIZE", vLLM's Expert
         * Parallel Deployment page, v0.10.1; data parallelism is not modelled); SGLang's {@code --ep-size}, as given,
         * each expert then split over {@code tp / ep} GPUs (its {@code moe_tp_size = tp_size // ep_size}, with "tp_size
         * must be divisible by ep_size", {@code model_config.py}).
         */
        int expertParallel(SimDialect dialect) {
            return dialect == SimDialect.SGLANG ? epSize : enableExpertParallel ? tp : 1;
        }

        /**
         * The adapters' names in {@code --lora-modules} (vLLM) or {@code --lora-paths} (SGLang): space-separated
         * {@code name=path} entries, a bare path (SGLang: named by itself), or JSON objects with a {@code "name"}.
         */
        static List<String> loraNames(Flag f) {
            text(f); // the flag needs its value
            List<String> names = new ArrayList<>();
            java.util.regex.Pattern jsonName = java.util.regex.Pattern.compile("\"(?:lora_)?name\"\\s*:\\s*\"([^\"]+)\"");
            // the items as the engine's argparse takes them apart (Flag.values: one home for list-valued flags)
            for (String entry : f.values()) {
                java.util.regex.Matcher json = jsonName.matcher(entry);
                if (entry.startsWith("{") && json.find()) {
                    names.add(json.group(1));
                } else {
                    int eq = entry.indexOf('=');
                    names.add(eq < 0 ? entry : entry.substring(0, eq));
                }
            }
            return names;
        }

        /** The adapters as the flags give them; vLLM serves them only with {@code --enable-lora}. */
        private LoraParams lora(SimDialect dialect) {
            if (loraNames.isEmpty()) {
                return LoraParams.NONE;
            }
            if (dialect != SimDialect.SGLANG && !enableLora) {
                throw new IllegalArgumentException("bad flag --lora-modules: vLLM serves LoRA adapters only with "
                        + "--enable-lora; expected --enable-lora beside it");
            }
            return new LoraParams(loraNames, maxLoras > 0 ? maxLoras : dialect == SimDialect.SGLANG ? 8 : 1,
                    maxLoraRank > 0 ? maxLoraRank : 16);
        }

        private static void chainOnly(Builder b, Flag f) {
            if (positiveInt(f) != 1) {
                throw bad(f, "1: the simulated engine models a chain of drafts, not a tree");
            }
        }

        /**
         * The settings the engine layer writes, by the engine's spellings ({@link EngineFlags}: one home for both
         * sides), and {@code own}: the engine's flags only the simulation reads.
         */
        private static Map<String, BiConsumer<Builder, Flag>> modelled(EngineFlags names,
                                                                       Map<String, BiConsumer<Builder, Flag>> own) {
            Map<String, BiConsumer<Builder, Flag>> flags = new java.util.HashMap<>(own);
            flags.put(names.maxModelLen(), names == EngineFlags.VLLM ? (b, f) -> b.maxModelLen = vllmMaxModelLen(f)
                    : (b, f) -> b.maxModelLen = positiveInt(f));
            flags.put(names.maxNumSeqs(), (b, f) -> b.maxNumSeqs = positiveInt(f));
            // vLLM reads the step's tokens as it reads the length, human-readable (human_readable_int)
            flags.put(names.maxNumBatchedTokens(), names == EngineFlags.SGLANG ? Builder::sglangChunkedPrefillSize
                    : (b, f) -> b.maxNumBatchedTokens = vllmHumanReadableInt(f));
            names.prefixCachingOn().forEach(on -> flags.put(on, (b, f) -> b.prefixCaching = bool(f)));
            names.prefixCachingOff().forEach(off -> flags.put(off, (b, f) -> b.prefixCaching = !bool(f)));
            flags.put(names.reasoningParser(), (b, f) -> b.reasoningParser = text(f));
            flags.put(names.apiKey(), (b, f) -> b.apiKey = text(f));
            flags.put(EngineFlags.SERVED_MODEL_NAME, (b, f) -> b.servedNames.addAll(f.values()));
            flags.put(names.gpuMemoryUtilization() != null ? names.gpuMemoryUtilization() : names.staticMemoryFraction(),
                    (b, f) -> b.memoryFraction = fraction(f));
            flags.put(names.tensorParallelSize(), (b, f) -> b.tp = positiveInt(f));
            // the same spelling in both engines, read by the simulation only
            flags.put("--quantization", Builder::quantization);
            flags.put("--kv-cache-dtype", Builder::kvCacheDtype);
            flags.put("--dtype", Builder::dtype);
            return Map.copyOf(flags);
        }

        /**
         * {@code --dtype}: the twin serves weights in 16 bits, as both engines do by default ({@code auto}) for a
         * bfloat16, float16 or float32 checkpoint ({@link ModelProfile#fromConfig}); {@code half}, {@code float16} and
         * {@code bfloat16} ask for the same bytes; 32-bit weights ({@code float}, {@code float32}) are not modelled.
         */
        private static void dtype(Builder b, Flag f) {
            if (!List.of("auto", "half", "float16", "bfloat16").contains(text(f).toLowerCase(Locale.ROOT))) {
                b.ignored.add(f.toArg());
            }
        }

        /**
         * {@code --quantization}, read against the checkpoint once it is found ({@link QuantizationArgument}): {@code fp8}
         * on a 16-bit checkpoint gives FP8 weights (vLLM's and SGLang's online FP8); the checkpoint's own method serves
         * it as it is; another method is refused as the engine refuses it.
         */
        private static void quantization(Builder b, Flag f) {
            b.quantization = text(f).toLowerCase(Locale.ROOT);
            b.quantizationFlag = f;
        }

        /**
         * A ModelOpt checkpoint as the engine starts it ({@link ModelOpt}): vLLM refuses FP8 below compute capability
         * 8.9 (NVFP4 runs on every GPU of the twin's, weight-only in Marlin where it has no FP4 tensor cores); both
         * engines cache its KV in FP8 where the checkpoint quantises its KV cache and {@code --kv-cache-dtype} is left
         * {@code auto} (vLLM's {@code resolve_kv_cache_dtype_string}; SGLang's {@code
         * ModelRunner.configure_kv_cache_dtype}, {@code python/sglang/srt/model_executor/model_runner.py}: "auto" with
         * the quantisation's {@code kv_cache_quant_algo} FP8 caches {@code float8_e4m3fn}).
         */
        private ModelProfile modelOptAsServed(SimDialect dialect, ModelProfile model, GpuProfile gpu) {
            if (dialect != SimDialect.SGLANG && !modelOpt.nvfp4()
                    && gpu.computeCapability() < ModelOpt.MIN_COMPUTE_CAPABILITY) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "the engine would not start: vLLM runs a"
                        + " ModelOpt FP8 checkpoint on compute capability %d and up only (\"The quantization method"
                        + " modelopt is not supported for the current GPU. Minimum capability: %d. Current capability:"
                        + " %d.\"); expected a GPU with FP8 tensor cores (L40S, H100, H200, B200) for %s",
                        ModelOpt.MIN_COMPUTE_CAPABILITY, ModelOpt.MIN_COMPUTE_CAPABILITY, gpu.computeCapability(),
                        model.name()));
            }
            boolean auto = kvCacheDtype == null || kvCacheDtype.equals("auto");
            return modelOpt.kvCacheFp8() && auto && !fp8KvCache ? model.withFp8KvCache() : model;
        }

        /** {@code --kv-cache-dtype fp8...}: one byte per cached element; {@code auto} keeps the model's. */
        private static void kvCacheDtype(Builder b, Flag f) {
            String v = text(f);
            b.kvCacheDtype = v;
            if (v.startsWith("fp8")) {
                b.fp8KvCache = true;
            } else if (!SIXTEEN_BIT_KV_CACHE.contains(v)) {
                b.ignored.add(f.toArg());
            }
        }

        /**
         * The {@code --kv-cache-dtype} values that keep a 16-bit cache, which the twin models: {@code auto} on a 16-bit
         * checkpoint, and the 16-bit choices the engines list beside it (vLLM's {@code bfloat16}, SGLang's {@code bf16}
         * and {@code bfloat16}), which also override a checkpoint's FP8 KV cache ({@link #modelOptAsServed}).
         */
        private static final java.util.Set<String> SIXTEEN_BIT_KV_CACHE = java.util.Set.of("auto", "bfloat16", "bf16");

        /** Applies {@code f} when {@code flags} models it; false when it does not. */
        boolean apply(Map<String, BiConsumer<Builder, Flag>> flags, Flag f) {
            BiConsumer<Builder, Flag> setter = flags.get(f.name());
            if (setter == null) {
                return false;
            }
            setter.accept(this, f);
            return true;
        }

        /**
         * {@code --sim-model-config=PATH}, read in every dialect: the config of a model that is not built in, for an
         * engine without a flag of its own for one (SGLang). The harness adds it from {@code --sim-model-config}; a
         * study's engine flags cannot carry it, since the engine's parser has no such flag.
         */
        boolean modelConfig(Flag f) {
            if (!f.name().equals(SIM_MODEL_CONFIG)) {
                return false;
            }
            hfConfigPath = text(f);
            return true;
        }

        /**
         * {@code --sim-mxfp4-kernel=marlin|triton}, read in every dialect: the kernel vLLM runs MXFP4 experts with where
         * it is not the one vLLM picks today on the GPU ({@link Mxfp4Kernel}): what {@code VLLM_MXFP4_USE_MARLIN=1}
         * chooses, and what vLLM before 0.12 ran on Hopper. {@code sim validate} sets it for cases of those versions.
         */
        boolean mxfp4Kernel(Flag f) {
            if (!f.name().equals(SIM_MXFP4_KERNEL)) {
                return false;
            }
            mxfp4Kernel = Mxfp4Kernel.named(text(f));
            return true;
        }

        /**
         * {@code --sim-acceptance-rate=P[,P2,...]}, read in every dialect ({@link #acceptanceRates}): the harness adds
         * it from its own {@code --sim-acceptance-rate}, and {@code sim validate} from a run's printed acceptance; a
         * study's engine flags cannot carry it, since the engine's parser has no such flag.
         */
        boolean acceptance(Flag f) {
            if (!f.name().equals(SIM_ACCEPTANCE_RATE)) {
                return false;
            }
            try {
                acceptance = acceptanceRates(text(f));
            } catch (IllegalArgumentException e) {
                throw bad(f, e.getMessage());
            }
            return true;
        }

        private void speculativeConfig(Flag f) {
            String expected = "JSON like {\"method\":\"mtp\",\"num_speculative_tokens\":1}";
            JsonNode json;
            try {
                json = JSON.readTree(text(f));
            } catch (JsonProcessingException e) {
                throw bad(f, expected + " (" + e.getOriginalMessage() + ")");
            }
            if (json == null || !json.isObject()) {
                throw bad(f, expected);
            }
            JsonNode method = json.get("method");
            JsonNode draft = json.get("model");
            JsonNode n = json.get("num_speculative_tokens");
            if (method != null && !method.isNull() && (!method.isTextual() || method.asText().isBlank())) {
                throw bad(f, expected + " with a \"method\" string");
            }
            if (draft != null && !draft.isNull() && (!draft.isTextual() || draft.asText().isBlank())) {
                throw bad(f, expected + " with \"model\" the draft's checkpoint, a string");
            }
            if (n == null || !n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 1) {
                throw bad(f, expected + " with \"num_speculative_tokens\" an integer >= 1");
            }
            String model = draft == null || draft.isNull() ? null : draft.asText();
            specMethod = draftMethod(method == null || method.isNull() ? null
                    : method.asText().toLowerCase(Locale.ROOT), model);
            specTokens = n.asInt();
        }

        /**
         * The draft method as vLLM's {@code SpeculativeConfig.__post_init__} resolves it ({@code vllm/config/
         * speculative.py}, read at vllm-project/vllm@156e3355): without a method, n-gram drafting when the model is
         * {@code ngram} and a draft model otherwise; {@code [ngram]} is n-gram. A method that drafts with a model of
         * its own (EAGLE, EAGLE-3, a draft model) without one stops the start, as vLLM stops it.
         */
        private static String draftMethod(String given, String model) {
            String method = given != null ? given
                    : "ngram".equals(model) || "[ngram]".equals(model) ? "ngram" : "draft_model";
            method = method.equals("[ngram]") ? "ngram" : method;
            boolean ownDraft = nativeMtp(method) || List.of("ngram", "ngram_gpu", "suffix", "extract_hidden_states")
                    .contains(method);
            if (model == null && !ownDraft) {
                throw new IllegalArgumentException("the engine would not start: vLLM's draft method " + method
                        + " drafts with a model of its own, and --speculative-config names none (\"num_speculative_tokens"
                        + " was provided but without speculative model.\"); expected \"model\": the draft's checkpoint,"
                        + " e.g. {\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\","
                        + "\"num_speculative_tokens\":3}, or method mtp or ngram");
            }
            return method;
        }

        SimParams build(SimDialect dialect, ModelProfile model, GpuProfile gpu) {
            if (dialect == SimDialect.SGLANG && mxfp4Kernel != null) {
                throw new IllegalArgumentException(SIM_MXFP4_KERNEL + " chooses vLLM's kernel for MXFP4 experts; the"
                        + " simulated SGLang holds them as its own choice of kernel does (triton_kernels on Hopper)");
            }
            if (dialect != SimDialect.SGLANG && enableExpertParallel && model.experts().layers() == 0) {
                // vLLM checks it before it loads anything (ModelConfig._verify_with_expert_parallelism,
                // vllm/config/model.py, v0.17.1 and v0.26.0); SGLang's --ep-size divides only MoE layers among groups
                throw new IllegalArgumentException("the engine would not start: vLLM refuses --enable-expert-parallel"
                        + " for a model without experts (\"Number of experts in the model must be greater than 0 when"
                        + " expert parallelism is enabled.\"); expected the flag left out for " + model.name()
                        + ", a dense model");
            }
            if (fewerWholeLayerKvHeads > 0 && tp > fewerWholeLayerKvHeads) {
                // the engines would copy those layers' heads (ModelProfile#kvCopies) while splitting the sliding ones'
                throw new IllegalArgumentException(String.format(Locale.ROOT, "%s over %d tensor-parallel ranks is not"
                        + " modelled by the simulated engine: its whole-context layers' %d KV heads would be copied over"
                        + " the ranks while its sliding layers' split, and the twin keeps one rule for a model's KV"
                        + " cache; expected a tensor-parallel size of at most %d", model.name(), tp,
                        fewerWholeLayerKvHeads, fewerWholeLayerKvHeads));
            }
            // each GPU of an expert-parallel group holds a slice of every expert of the group, padded on its own
            int slices = Math.max(1, tp / Math.max(1, expertParallel(dialect)));
            model = model.withExpertsHeldBy(dialect == SimDialect.SGLANG
                    ? Mxfp4Kernel.sglangDefault(gpu.computeCapability(), epSize)
                    : mxfp4Kernel != null ? mxfp4Kernel : Mxfp4Kernel.vllmDefault(gpu.computeCapability()), slices);
            if (modelOpt != null) {
                model = modelOptAsServed(dialect, model, gpu);
            }
            if (model.window().reach() == ModelProfile.Reach.TOP_K) {
                if (dialect == SimDialect.SGLANG) {
                    throw new IllegalArgumentException("SGLang's sparse attention of " + model.name() + " is not"
                            + " modelled by the simulated engine: SGLang serves it with a backend of its own (nsa) and,"
                            + " for DeepSeek V3.2, DP attention by default (docs/basic_usage/deepseek_v32.md); rehearse"
                            + " it with --engine vllm, or measure SGLang on a real engine");
                }
                model = model.sparseAttentionServedByVllm(tp, gpu);
            }
            if (dialect == SimDialect.SGLANG) {
                model = model.servedBySglang(!noHybridSwaMemory);
                // SGLang leaves such a model's vision encoder unbuilt unless asked (ModelArchitecture)
                languageModelOnly |= sglangVisionOnRequest && !enableMultimodal;
            } else if (noHybridKvCacheManager || model.window().chunked()) {
                // vLLM turns its hybrid KV cache manager off for chunked local attention by default ("There is a latency
                // regression when using chunked local attention with the hybrid KV cache manager. Disabling it, by
                // default.", VllmConfig.__post_init__, vllm/config/vllm.py, v0.17.1 and v0.26.0), unless
                // VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1, which the twin does not read
                model = model.withoutVllmHybridKvCacheManager();
            }
            // each engine derives the model's context from its config in its own way (ContextLength)
            int context = model.context().tokens(dialect);
            boolean autoFit = maxModelLen == AUTO_MAX_MODEL_LEN;
            if (maxModelLen == 0 || autoFit) {
                maxModelLen = context;
            } else if (maxModelLen > context) {
                boolean sglang = dialect == SimDialect.SGLANG;
                String flag = (sglang ? EngineFlags.SGLANG : EngineFlags.VLLM).maxModelLen();
                throw new IllegalArgumentException(flag + " " + maxModelLen + " is greater than the context "
                        + dialect.engineName() + " derives from the config of " + model.name() + " (" + context
                        + ": " + model.context().rule(dialect) + "); expected at most that, as the engine requires");
            }
            if (specMethod != null && nativeMtp(specMethod) && mtpLayers == 0) {
                throw noMtpLayers(dialect, model.name());
            }
            if (dialect == SimDialect.SGLANG && specMethod != null) {
                specTokens = sglangSpecSteps > 0 ? sglangSpecSteps
                        : sglangDraftTokens > 0 ? Math.max(1, sglangDraftTokens - 1) : 3;
            }
            List<Double> p = acceptance != null ? acceptance
                    : List.of(specMethod == null ? 0 : defaultAcceptance(specMethod));
            int stateSlots = 0;
            if (dialect == SimDialect.SGLANG) {
                stateSlots = sglangLimits(model, gpu);
            } else {
                boolean seqsGiven = maxNumSeqs > 0;
                boolean tokensGiven = maxNumBatchedTokens > 0;
                // vLLM's defaults, each doubled in throughput mode, the step's tokens then at most every sequence at the
                // max model length (EngineArgs._set_default_max_num_seqs_and_batched_tokens_args, v0.17.1 and v0.26.0)
                int doubled = mode == PerformanceMode.THROUGHPUT ? 2 : 1;
                maxNumSeqs = seqsGiven ? maxNumSeqs : EngineDefaults.vllmMaxNumSeqs(gpu) * doubled;
                // without chunked prefill, a defaulted step holds at least one whole max-length prompt
                maxNumBatchedTokens = tokensGiven ? maxNumBatchedTokens
                        : (int) Math.min(Math.max((long) EngineDefaults.vllmMaxNumBatchedTokens(gpu) * doubled,
                                chunkedPrefill ? 0 : maxModelLen), (long) maxNumSeqs * maxModelLen);
                if (!chunkedPrefill && maxNumBatchedTokens < maxModelLen) {
                    // SchedulerConfig.verify_max_model_len, vllm/config/scheduler.py, v0.17.1
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "the engine would not start: vLLM"
                            + " without chunked prefill refuses a step of fewer tokens than its max model length"
                            + " (\"max_num_batched_tokens (%d) is smaller than max_model_len (%d). This effectively limits"
                            + " the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer"
                            + " sequences.\"); expected --max-num-batched-tokens of at least %d, or a shorter"
                            + " --max-model-len", maxNumBatchedTokens, maxModelLen, maxModelLen));
                }
                if (!seqsGiven) {
                    // a default batch never holds more sequences than a step's tokens (EngineArgs.
                    // _set_default_max_num_seqs_and_batched_tokens_args, vllm/engine/arg_utils.py, v0.17.1 and v0.26.0)
                    maxNumSeqs = Math.min(maxNumSeqs, maxNumBatchedTokens);
                } else if (maxNumBatchedTokens < maxNumSeqs) {
                    // and one given so refuses to start (SchedulerConfig, vllm/config/scheduler.py)
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "the engine would not start: vLLM"
                            + " refuses a step of fewer tokens than its sequences (\"max_num_batched_tokens (%d) must be"
                            + " greater than or equal to max_num_seqs (%d).\"); expected --max-num-batched-tokens of at"
                            + " least %d, or --max-num-seqs of at most %d", maxNumBatchedTokens, maxNumSeqs, maxNumSeqs,
                            maxNumBatchedTokens));
                }
                prefixCaching = prefixCaching != null ? prefixCaching : EngineDefaults.vllmPrefixCaching(model);
                memoryFraction = memoryFraction > 0 ? memoryFraction : VLLM_DEFAULT_MEMORY_FRACTION;
                if (autoFit) {
                    maxModelLen = autoFitMaxModelLen(dialect, model, gpu, tp);
                }
            }
            return new SimParams(dialect, model, gpu, maxModelLen, maxNumSeqs, maxNumBatchedTokens,
                    prefixCaching, specMethod, specTokens, p, mode, languageModelOnly, reasoningParser, memoryFraction,
                    tp, expertParallel(dialect), ignored, apiKey, EngineProfile.forDialect(dialect, model), stateSlots, lora(dialect), servedNames, adminApiKey, modelSource,
                    noOverlapSchedule || dialect == SimDialect.SGLANG && ngram(specMethod), scheduleConservativeness,
                    chunkedPrefill, longPrefillThreshold(dialect),
                    // SGLang turns mixed chunks off with any speculative decoding ("Mixed chunked prefill is disabled
                    // because of using eagle speculative decoding.", server_args.py)
                    dialect == SimDialect.SGLANG && mixedChunk && specMethod == null,
                    dialect == SimDialect.SGLANG ? 0 : kvCacheMemoryBytes, dialect == SimDialect.SGLANG ? maxTotalTokens : 0);
        }

        /**
         * Fills in what SGLang 0.5.9 derives when its flags leave it open ({@link EngineDefaults}): the chunked-prefill
         * size and memory fraction from the GPU, the radix cache on, and the most running requests from the memory pools:
         * 48 with speculative decoding; else half the KV tokens, at most the request pool; for a hybrid model also at
         * most a third of the mamba pool's states (one with the radix cache off), the pool holding 0.9 / 1.9 of the memory
         * the weights leave unless the radix cache is off and the running requests are given.
         *
         * @return the mamba pool's states, 0 for a model without linear-attention layers
         */
        private int sglangLimits(ModelProfile model, GpuProfile gpu) {
            // without chunked prefill a prefill batch takes --max-prefill-tokens, and its first prompt whole whatever it is
            maxNumBatchedTokens = !chunkedPrefill ? (maxPrefillTokens > 0 ? maxPrefillTokens
                    : EngineDefaults.SGLANG_MAX_PREFILL_TOKENS)
                    : maxNumBatchedTokens > 0 ? maxNumBatchedTokens : EngineDefaults.sglangChunkedPrefillSize(gpu);
            prefixCaching = prefixCaching == null || prefixCaching;
            memoryFraction = memoryFraction > 0 ? memoryFraction
                    : EngineDefaults.sglangMemFractionStatic(gpu, tp, maxNumBatchedTokens, specMethod);
            int given = maxNumSeqs > 0 ? maxNumSeqs
                    : specMethod != null ? EngineDefaults.SGLANG_SPECULATIVE_MAX_RUNNING_REQUESTS : 0;
            double left = memoryLeftBytes(SimDialect.SGLANG, model, gpu, memoryFraction, tp, 0, languageModelOnly);
            int slots = 0;
            double kvBytes = left;
            int requestPool;
            if (EngineDefaults.hybrid(model)) {
                double state = model.stateBytesPerSequence();
                double rest = left - (specMethod != null ? state * given * (specTokens + 1) : 0);
                double ratio = EngineDefaults.SGLANG_MAMBA_FULL_MEMORY_RATIO;
                slots = !prefixCaching && given > 0 ? given : (int) Math.max(0, rest * ratio / (1 + ratio) / state);
                kvBytes = rest - slots * state;
            }
            long kvTokens = (long) Math.max(0, kvBytes / sglangPoolTokenBytes(model, tp));
            if (maxTotalTokens > 0) {
                // the smaller of the profiled pool and --max-total-tokens, before the request pool is derived from it
                kvTokens = Math.min(kvTokens, maxTotalTokens);
            }
            requestPool = given > 0 ? given : EngineDefaults.sglangRequestPool(kvTokens, maxModelLen);
            // SGLang starts with a pool smaller than the context and caps each request at the pool instead
            // (managers/tp_worker.py: max_req_len = min(context_len - 1, max_total_num_tokens - 1), asserting only
            // "Memory pool size is too small"); vLLM refuses to start (SimParams' own check)
            if (kvTokens - 1 < 2) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "SGLang's KV pool holds %d tokens: \"Memory"
                        + " pool size is too small\"; raise --mem-fraction-static", kvTokens));
            }
            maxModelLen = (int) Math.min(maxModelLen, kvTokens - 1);
            if (slots > 0) {
                requestPool = Math.min(requestPool, slots / EngineDefaults.sglangMambaSlotsPerRequest(prefixCaching));
            }
            if (requestPool < 1) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "SGLang's mamba pool holds %d states of "
                        + "%.0f MiB, not one running request's; raise --mem-fraction-static", slots,
                        model.stateBytesPerSequence() / (1024 * 1024)));
            }
            maxNumSeqs = given > 0 ? Math.min(given, requestPool) : (int) Math.min(kvTokens / 2, requestPool);
            maxNumSeqs = Math.max(1, maxNumSeqs);
            return slots;
        }

        /**
         * Whether SGLang's {@code --speculative-algorithm} is its n-gram one, with which it turns its overlap scheduler
         * off ("The overlap scheduler and mixed chunked prefill are disabled because of using ngram speculative
         * decoding.", {@code server_args.py}; {@code LOOKAHEAD} its earlier name).
         */
        private static boolean ngram(String method) {
            return "ngram".equals(method) || "lookahead".equals(method);
        }

        /**
         * Whether a speculative method drafts with the checkpoint's own multi-token-prediction layers: vLLM's {@code mtp}
         * (and the model-named spellings it takes for it, {@code deepseek_mtp} and the like), SGLang's {@code NEXTN}.
         */
        private static boolean nativeMtp(String method) {
            return method.equals("mtp") || method.equals("nextn") || method.endsWith("_mtp");
        }

        /**
         * An MTP draft asked of a checkpoint without MTP layers. vLLM builds the draft from the target's config, which
         * names no MTP model, and stops the start: "Unsupported speculative method: 'mtp'" ({@code
         * SpeculativeConfig.__post_init__}, {@code vllm/config/speculative.py}, read at vllm-project/vllm@002e77c1; in
         * the 0.10 and 0.11 lines "Speculative decoding with draft model is not supported yet ..."). SGLang's NEXTN is
         * its EAGLE worker over the checkpoint's own MTP layers, whose start without them was not read: not modelled.
         */
        private static IllegalArgumentException noMtpLayers(SimDialect dialect, String model) {
            if (dialect == SimDialect.SGLANG) {
                return new IllegalArgumentException("--speculative-algorithm NEXTN drafts with the checkpoint's own"
                        + " multi-token-prediction layers, and the config of " + model + " names none"
                        + " (num_nextn_predict_layers, mtp_num_hidden_layers): a NEXTN draft without them is not modelled"
                        + " by the simulated engine; expected EAGLE with --speculative-draft-model-path, or NGRAM");
            }
            return new IllegalArgumentException("the engine would not start: vLLM drafts method mtp with the checkpoint's"
                    + " own multi-token-prediction layers, and the config of " + model + " names none"
                    + " (num_nextn_predict_layers, mtp_num_hidden_layers), so vLLM refuses the draft (\"Unsupported"
                    + " speculative method: 'mtp'\"; in vLLM 0.10 and 0.11 \"Speculative decoding with draft model is not"
                    + " supported yet\"); expected ngram, or eagle/eagle3 with a draft \"model\"");
        }

        private static double defaultAcceptance(String method) {
            if (nativeMtp(method)) {
                return MTP_ACCEPTANCE;
            }
            if (method.startsWith("eagle")) {
                return EAGLE_ACCEPTANCE;
            }
            if (method.equals("ngram") || method.equals("lookahead")) {
                return NGRAM_ACCEPTANCE;
            }
            return OTHER_ACCEPTANCE;
        }

        private static PerformanceMode performanceMode(Flag f) {
            String v = text(f).toLowerCase(Locale.ROOT);
            return switch (v) {
                case "interactivity" -> PerformanceMode.INTERACTIVITY;
                case "balanced" -> PerformanceMode.BALANCED;
                case "throughput" -> PerformanceMode.THROUGHPUT;
                default -> throw bad(f, "one of interactivity, balanced, throughput");
            };
        }

        private static String text(Flag f) {
            if (f.value() == null || f.value().isBlank()) {
                throw bad(f, "a value (" + f.name() + "=VALUE)");
            }
            return f.value().strip();
        }

        private static int positiveInt(Flag f) {
            try {
                int v = Integer.parseInt(text(f));
                if (v >= 1) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // reported below with the flag's name
            }
            throw bad(f, "a positive integer");
        }

        private static final java.util.regex.Pattern HUMAN_READABLE =
                java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)([kmgKMG])");

        /**
         * vLLM's {@code --max-model-len auto} (or {@code -1}), with the limits the scheduler took from the length the
         * config gives: that length if one sequence of it fits the KV cache, else the longest that does, as vLLM's {@code
         * _auto_fit_max_model_len} searches the lengths from 1 to it ({@code vllm/v1/core/kv_cache_utils.py}); that
         * length again where not one token fits, which the start then refuses as vLLM's does.
         */
        private int autoFitMaxModelLen(SimDialect dialect, ModelProfile model, GpuProfile gpu, int tp) {
            double pool = poolBytes(dialect, model, gpu, memoryFraction, tp, maxNumBatchedTokens, languageModelOnly, 0,
                    maxNumSeqs, specTokens, kvCacheMemoryBytes);
            if (sequenceBytes(model, maxModelLen, tp, 0) <= pool || sequenceBytes(model, 1, tp, 0) > pool) {
                return maxModelLen;
            }
            int fits = 1;
            int longest = maxModelLen;
            while (fits < longest) {
                int mid = (int) ((fits + (long) longest + 1) / 2);
                if (sequenceBytes(model, mid, tp, 0) <= pool) {
                    fits = mid;
                } else {
                    longest = mid - 1;
                }
            }
            return fits;
        }

        /**
         * A positive whole number of tokens as vLLM reads {@code --max-num-batched-tokens} and {@code --max-model-len}
         * (vllm-project/vllm {@code vllm/engine/arg_utils.py}, {@code human_readable_int}: "'1k' -> 1,000, '1K' -> 1,024,
         * '25.6k' -> 25,600"): plain, or a number with a decimal suffix k, m, g (x 1000, decimals allowed) or a binary
         * one K, M, G (x 1024, whole numbers only).
         */
        private static int vllmHumanReadableInt(Flag f) {
            return vllmHumanReadableInt(f, "32768, 32k or 32K");
        }

        private static int vllmHumanReadableInt(Flag f, String example) {
            return (int) vllmHumanReadable(f, "tokens", example, Integer.MAX_VALUE);
        }

        /**
         * vLLM's {@code --max-model-len}: a length as {@link #vllmHumanReadableInt} reads it, or {@code auto} or {@code -1}
         * ({@link #AUTO_MAX_MODEL_LEN}), "Automatically choose the maximum model length that fits in GPU memory"
         * ({@code human_readable_int_or_auto}, {@code ModelConfig.max_model_len}, {@code vllm/config/model.py}).
         */
        private static int vllmMaxModelLen(Flag f) {
            String v = text(f).strip();
            return v.equals("auto") || v.equals("-1") ? AUTO_MAX_MODEL_LEN
                    : vllmHumanReadableInt(f, "32768, 32k or 32K, or auto (-1) for the longest the KV cache holds");
        }

        /**
         * A whole number as vLLM's {@code human_readable_int} reads it: plain, or with k, m, g (x 1000) or K, M, G
         * (x 1024, whole numbers only).
         */
        private static double vllmHumanReadable(Flag f, String unit, String example, double max) {
            String v = text(f).strip();
            java.util.regex.Matcher m = HUMAN_READABLE.matcher(v);
            double value = -1;
            if (m.matches()) {
                double number = Double.parseDouble(m.group(1));
                char suffix = m.group(2).charAt(0);
                int power = "kmg".indexOf(Character.toLowerCase(suffix)) + 1;
                if (Character.isLowerCase(suffix)) {
                    value = Math.floor(number * Math.pow(1000, power));
                } else if (!m.group(1).contains(".")) {
                    value = number * Math.pow(1024, power);
                }
            } else if (v.matches("\\d{1,18}")) {
                value = Double.parseDouble(v);
            }
            if (!(value >= 1 && value <= max)) {
                throw bad(f, "a positive whole number of " + unit + " as vLLM reads it: plain, or with k, m, g (x 1000)"
                        + " or K, M, G (x 1024, whole numbers only), e.g. " + example);
            }
            return value;
        }

        private static double fraction(Flag f) {
            double v = number(f, "a fraction in (0, 1]");
            if (!(v > 0 && v <= 1)) {
                throw bad(f, "a fraction in (0, 1]");
            }
            return v;
        }

        /**
         * SGLang's {@code --chunked-prefill-size}: a step's prompt tokens, or, at 0 or less, chunked prefill off ("-1 means
         * disable", {@code Scheduler.init_chunked_prefill}).
         */
        private static void sglangChunkedPrefillSize(Builder b, Flag f) {
            int size;
            try {
                size = Integer.parseInt(text(f).strip());
            } catch (NumberFormatException e) {
                throw bad(f, "a whole number of tokens, or -1 to prefill prompts whole");
            }
            if (size <= 0) {
                b.chunkedPrefill = false;
            } else {
                b.maxNumBatchedTokens = size;
            }
        }

        private static int nonNegativeInt(Flag f) {
            try {
                int v = Integer.parseInt(text(f).strip());
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // reported below with the flag's name
            }
            throw bad(f, "a whole number at least 0");
        }

        /** A finite number at least 0: SGLang asserts "Invalid schedule_conservativeness" below it. */
        private static double nonNegative(Flag f) {
            double v = number(f, "a number at least 0");
            if (!(v >= 0 && Double.isFinite(v))) {
                throw bad(f, "a number at least 0");
            }
            return v;
        }

        private static double number(Flag f, String expected) {
            try {
                return Double.parseDouble(text(f));
            } catch (NumberFormatException e) {
                throw bad(f, expected);
            }
        }

        private static boolean bool(Flag f) {
            if (f.value() == null) {
                return true;
            }
            return switch (f.value().strip().toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes" -> true;
                case "false", "0", "no" -> false;
                default -> throw bad(f, "no value (a switch) or true/false");
            };
        }

        private static IllegalArgumentException bad(Flag f, String expected) {
            return new IllegalArgumentException("bad flag " + f.toArg() + ": expected " + expected);
        }
    }
}
