package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What the timing model needs to know about a model.
 *
 * @param name                  the model id served (e.g. {@code Qwen/Qwen3.5-9B})
 * @param parameters            language-model parameters, all read once per forward step
 * @param activeParameters      of which one token goes through (all of them for a dense model, the routed
 *                              experts' share for a mixture of experts): the FLOPs per token are twice this
 * @param bytesPerParameter     bytes per weight (2 for bf16)
 * @param kvBytesPerToken       KV-cache bytes one token of context occupies, summed over the layers that attend to the
 *                              whole context (0 where every layer slides)
 * @param stateBytesPerSequence fixed per-sequence state (linear-attention / SSM layers), read every step
 *                              for every running sequence; 0 for a pure-attention model
 * @param nonLanguageBytes      weights (and their reserved working memory) that only multimodal input uses,
 *                              e.g. a vision encoder; freed by {@code --language-model-only}
 * @param context               the model's context as each engine derives it from the config, tokens: its default max
 *                              model length, and the most it allows
 * @param draftFraction         cost of one draft token of the model's native multi-token-prediction (MTP) head,
 *                              as a fraction of one full forward step of the main model
 * @param hiddenSize            the width of the residual stream: with tensor parallelism, each layer all-reduces
 *                              {@code hiddenSize} values per token twice (after attention and after the MLP)
 * @param layers                decoder layers
 * @param experts               the routed experts of a mixture-of-experts model ({@link Experts#NONE} for a dense one):
 *                              a step reads only the experts its tokens are routed to ({@link #weightBytesRead})
 * @param window                the sliding-window attention layers ({@link Window#NONE} for none); their KV is not in
 *                              {@code kvBytesPerToken}, which counts the layers that attend to the whole context
 * @param expertBytesPerParameter bytes per weight of the routed experts: {@code bytesPerParameter}, unless the
 *                              checkpoint quantises only them (gpt-oss's MXFP4 experts beside bf16 attention)
 * @param kvSplit               the most tensor-parallel ranks the KV cache splits over ({@link #kvCopies}): 1 for latent
 *                              attention, whose one compressed head every rank keeps whole; the KV heads for
 *                              grouped-query attention ({@code num_key_value_heads}); {@link Integer#MAX_VALUE} for the
 *                              tests' hand-made models, as if their heads split over any number of ranks
 * @param attentionHeads        the query heads ({@code num_attention_heads}) that tensor parallelism deals out among its
 *                              ranks; 0 where unknown (the reference's fitted profile, the tests' hand-made models), for
 *                              which no split is refused ({@link #tensorParallelRefused})
 * @param attentionFlopsPerPair FLOPs of attention per query token and key token it attends, summed over the layers that
 *                              attend to the whole context: {@code 4 x heads x head dim} a layer (q.k and the weighted
 *                              sum of v, a multiply-add each), {@code 2 x heads x (q/k head dim + v head dim)} for latent
 *                              attention in the form the engines prefill it; a prefill's cost grows with the square of
 *                              its length through it
 * @param embeddings            the vocabulary's tables: a step looks up rows of the input embedding and multiplies the
 *                              output projection for one position per sequence only ({@link Embeddings}); {@link
 *                              Embeddings#NONE} for the tests' hand-made models, whose parameters are all layers'
 * @param activationTraffic     what the layers' elementwise kernels read and write per computed token ({@link
 *                              ActivationTraffic}); {@link ActivationTraffic#NONE} for a hand-made model
 * @param lowBitWeights         how the weights of under 16 bits (all the layers', or the routed experts' alone) multiply
 *                              where their bytes do not tell: integers in 16 bits ({@link LowBitWeights#INTEGER}: 8-bit
 *                              integers per channel take one byte a weight as FP8 does), NVFP4 ({@link
 *                              LowBitWeights#NVFP4}); {@link LowBitWeights#NONE} for 16-bit, FP8 and MXFP4 weights
 */
public record ModelProfile(
        String name,
        double parameters,
        double activeParameters,
        double bytesPerParameter,
        double kvBytesPerToken,
        double stateBytesPerSequence,
        double nonLanguageBytes,
        ContextLength context,
        double draftFraction,
        int hiddenSize,
        int layers,
        Experts experts,
        Window window,
        double expertBytesPerParameter,
        int kvSplit,
        int attentionHeads,
        double attentionFlopsPerPair,
        Embeddings embeddings,
        ActivationTraffic activationTraffic,
        LowBitWeights lowBitWeights) {

    /** Bytes of an activation value: the engines run bf16 or fp16 activations beside any weights. */
    static final double ACTIVATION_BYTES = 2;
    /**
     * Bytes of a weight of the vocabulary's tables, whatever the layers': FP8 leaves them in 16 bits. vLLM's
     * {@code Fp8Config.get_quant_method} quantises linear and fused-MoE layers and returns no method for an embedding or
     * the output head ({@code vllm/model_executor/layers/quantization/fp8.py}); FP8 checkpoints ship them in bf16.
     */
    static final double TABLE_BYTES = 2;
    /** Bytes an FP8 product's activation quantisation moves per value: the 16-bit value read, the FP8 one written. */
    static final double QUANTISATION_BYTES = ACTIVATION_BYTES + 1;

    /**
     * The reader of a model's JSON files (config.json, tokenizer_config.json, the architectures' defaults): a file with
     * anything after its object is a damaged file, not the object alone.
     */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Width of an FP8 weight block, both ways ({@link LowBitWeights#FP8_BLOCK}). */
    static final int FP8_BLOCK = 128;
    /** The one {@code weight_block_size} modelled: DeepSeek's, Qwen's and GLM-5's. */
    private static final com.fasterxml.jackson.databind.JsonNode FP8_BLOCKS = JSON.createArrayNode().add(FP8_BLOCK)
            .add(FP8_BLOCK);

    /**
     * The routed experts of a mixture-of-experts model's sparse layers (a shared expert, always run, counts with the
     * dense weights).
     *
     * @param layers     sparse layers
     * @param count      routed experts per sparse layer
     * @param perToken   experts each token is routed to ({@code num_experts_per_tok})
     * @param parameters parameters of one routed expert's MLP
     */
    public record Experts(int layers, int count, int perToken, double parameters) {

        /** A dense model: no routed experts. */
        public static final Experts NONE = new Experts(0, 0, 0, 0);

        public Experts {
            if (layers < 0 || count < 0 || perToken < 0 || parameters < 0 || perToken > count) {
                throw new IllegalArgumentException("experts: expected layers, count, perToken <= count and parameters"
                        + " >= 0, got " + layers + ", " + count + ", " + perToken + ", " + parameters);
            }
        }

        /** Parameters of every routed expert of every sparse layer: what the experts hold, all of them. */
        double stored() {
            return layers * parameters * count;
        }

        /**
         * The distinct experts of one sparse layer that {@code tokens} tokens are routed to, expected under routing
         * that picks each token's {@code perToken} experts uniformly: {@code count (1 - (1 - perToken/count)^tokens)}.
         * One token touches {@code perToken}; a batch of a few hundred touches nearly all. Real routers favour some
         * experts, so a real batch touches somewhat fewer: an upper bound on the traffic.
         */
        double touched(long tokens) {
            return count == 0 ? 0 : count * (1 - Math.pow(1 - (double) perToken / count, tokens));
        }

        /**
         * Under expert parallelism, whole experts dealt to {@code groups} groups of GPUs: the touched experts ({@link
         * #touched}) of the busiest group, expected under the same uniform routing. Each of a group's {@code count /
         * groups} experts is touched with {@code p = 1 - (1 - perToken/count)^tokens}, so a group's touched experts are
         * binomial, and the busiest of {@code groups} such is taken as their mean plus their standard deviation times the
         * expected maximum of as many standard normals ({@link #normalMaximum}), at most the group's experts. One token
         * on eight groups of 16 of 128 experts: 2.4 of its 8 experts in the busiest group, where each GPU's share under
         * tensor parallelism is one expert's worth; a batch of hundreds touches nearly every expert of every group.
         */
        double busiestGroupTouched(long tokens, int groups) {
            double size = (double) count / groups;
            double p = 1 - Math.pow(1 - (double) perToken / count, tokens);
            return Math.min(size, size * p + Math.sqrt(size * p * (1 - p)) * normalMaximum(groups));
        }

        /**
         * Under expert parallelism over {@code groups} groups: the token-expert pairs of {@code tokens} tokens (each to
         * {@code perToken} experts) that the busiest group computes, expected under uniform routing, as {@link
         * #busiestGroupTouched} takes the busiest of binomials; each group's mean share is {@code tokens x perToken /
         * groups}, which tensor parallelism gives every GPU.
         */
        double busiestGroupPairs(long tokens, int groups) {
            double pairs = (double) tokens * perToken;
            double share = 1.0 / groups;
            return Math.min(pairs, pairs * share + Math.sqrt(pairs * share * (1 - share)) * normalMaximum(groups));
        }

        /**
         * The expected maximum of {@code n} independent standard normal variables: the integral of {@code x n phi(x)
         * Phi(x)^(n-1)} over the line, taken numerically (0 for one, 0.564 for two, 1.424 for eight, 1.766 for 16).
         */
        static double normalMaximum(int n) {
            if (n <= 1) {
                return 0;
            }
            return NORMAL_MAXIMA.computeIfAbsent(n, k -> {
                double step = 1e-3;
                double cdf = 0;
                double sum = 0;
                for (double x = -10; x < 10; x += step) {
                    double pdf = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
                    sum += x * k * pdf * Math.pow(cdf + pdf * step / 2, k - 1) * step;
                    cdf += pdf * step;
                }
                return sum;
            });
        }

        private static final java.util.Map<Integer, Double> NORMAL_MAXIMA = new java.util.concurrent.ConcurrentHashMap<>();
    }

    /**
     * The layers whose attention sees only part of the context: the last {@code tokens} tokens (sliding-window attention:
     * gpt-oss, Gemma 2/3, every other or five of six layers; Mistral 7B v0.1, every layer), the tokens of the query's
     * own chunk of {@code tokens} (chunked local attention: Llama 4, three layers of four), or the {@code tokens} its
     * indexer picks among all before it (DeepSeek Sparse Attention: DeepSeek V3.2 and GLM-5, every layer; {@link
     * Reach}). A step reads the KV of at most {@code tokens} tokens of them, however long its context. vLLM's KV cache
     * manager frees a sliding layer's blocks that fall out of the window ({@code SlidingWindowManager}), so a sequence holds at most the window's; SGLang serves
     * them as its {@link SglangWindow} for the architecture says.
     *
     * @param tokens          the window or the chunk, tokens ({@code sliding_window}, {@code attention_chunk_size})
     * @param kvBytesPerToken KV bytes of one token, summed over these layers
     * @param flopsPerPair    attention FLOPs per query token and key token it attends, summed over these layers
     * @param sglang          how SGLang serves these layers
     * @param keepsEveryToken whether the cache keeps every token of these layers, read or not (SGLang's one pool: {@link
     *                        SglangWindow#ONE_POOL}; vLLM without its hybrid KV cache manager), rather than at most the
     *                        window's
     * @param reach           which keys a query attends
     */
    public record Window(int tokens, double kvBytesPerToken, double flopsPerPair, SglangWindow sglang,
                         boolean keepsEveryToken, Reach reach) {

        /** No sliding-window layer. */
        public static final Window NONE = new Window(0, 0, 0, SglangWindow.OWN_POOL);

        public Window {
            if (tokens < 0 || kvBytesPerToken < 0 || (tokens == 0) != (kvBytesPerToken == 0)) {
                throw new IllegalArgumentException("window: expected tokens and kvBytesPerToken both 0 or both > 0, got "
                        + tokens + " and " + kvBytesPerToken);
            }
            if (flopsPerPair < 0) {
                throw new IllegalArgumentException("window: flopsPerPair must be >= 0, got " + flopsPerPair);
            }
            java.util.Objects.requireNonNull(sglang, "sglang");
            java.util.Objects.requireNonNull(reach, "reach");
        }

        /** Sliding-window layers as vLLM serves them, whatever SGLang does: the cache keeps at most the window's tokens. */
        Window(int tokens, double kvBytesPerToken, double flopsPerPair, SglangWindow sglang) {
            this(tokens, kvBytesPerToken, flopsPerPair, sglang, false, Reach.LAST);
        }

        /** These layers with their cache keeping every token. */
        Window keepingEveryToken() {
            return new Window(tokens, kvBytesPerToken, flopsPerPair, sglang, true, reach);
        }

        /** Whether a query attends its own chunk ({@link Reach#CHUNK}). */
        boolean chunked() {
            return reach == Reach.CHUNK;
        }

        /** The KV bytes a sequence of {@code tokens} tokens holds in these layers. */
        double heldBytes(long tokens) {
            return kvBytesPerToken * (keepsEveryToken ? tokens : Math.min(tokens, this.tokens));
        }

        /** The keys the last of a sequence's {@code context} tokens attends to in these layers (0 without them). */
        long keys(long context) {
            if (tokens == 0 || context == 0) {
                return 0;
            }
            return chunked() ? (context - 1) % tokens + 1 : Math.min(context, tokens);
        }

        /**
         * Query and key tokens these layers pair for {@code count} new tokens after {@code before} computed ones: the
         * token at (0-based) position {@code p} attends to {@code min(p + 1, window)} keys in a sliding layer or a
         * sparse one, to {@code p mod chunk + 1} in a chunked one.
         */
        long pairs(long before, long count) {
            if (tokens == 0) {
                return 0;
            }
            if (chunked()) {
                return chunkedPairsBefore(before + count) - chunkedPairsBefore(before);
            }
            long unclipped = Math.max(0, Math.min(count, tokens - before));
            return unclipped * before + unclipped * (unclipped + 1) / 2 + (count - unclipped) * tokens;
        }

        /** The pairs of the first {@code n} positions of a chunked layer: whole chunks, then the part of the last. */
        private long chunkedPairsBefore(long n) {
            long rest = n % tokens;
            return n / tokens * ((long) tokens * (tokens + 1) / 2) + rest * (rest + 1) / 2;
        }
    }

    /** Which keys a query of a {@link Window}'s layers attends. */
    public enum Reach {
        /** The last {@code tokens} tokens: sliding-window attention. */
        LAST,
        /** Those of its own chunk of {@code tokens}: chunked local attention. */
        CHUNK,
        /**
         * The {@code tokens} earlier tokens a lightning indexer scores highest (DeepSeek Sparse Attention, {@code
         * index_topk}): as many keys as a sliding window's, chosen from the whole context, whose every token the cache
         * keeps. Every query's indexer scores all the tokens before it ({@link ModelProfile#kvBytesPerToken} and {@link
         * ModelProfile#attentionFlopsPerPair} count the indexer's keys and products).
         */
        TOP_K
    }

    /**
     * How SGLang serves a model's sliding-window layers, which depends on the architecture where vLLM's rule is one (every
     * sliding layer attends within its window, and its blocks out of the window are freed). SGLang keeps sliding layers
     * in a pool of their own only for the architectures its {@code is_hybrid_swa_model} lists ({@code
     * python/sglang/srt/configs/model_config.py}, read at sgl-project/sglang@8b5e1bbf and @001adf56: gpt-oss, Llama 4,
     * MiMo, Step 3.5, Gemma 4; Gemma 2 and 3 in neither); any other model's layers share one pool of every token. Its
     * Gemma 2 and Gemma 3 attention passes the window to the kernel ({@code sliding_window_size} in {@code
     * models/gemma2.py}, {@code gemma3_causal.py}); its Mistral is its Llama ({@code models/mistral.py}), whose
     * attention takes no window at all ({@code models/llama.py}).
     */
    public enum SglangWindow {
        /** A pool of their own beside the full layers', sized as {@code swa_full_tokens_ratio} of it (gpt-oss). */
        OWN_POOL,
        /** Attending within the window, their KV kept for every token in the one pool (Gemma 2, Gemma 3). */
        ONE_POOL,
        /** Not at all: these layers attend to the whole context, as every other layer (Mistral, served as Llama). */
        IGNORED
    }

    /**
     * The vocabulary's tables, counted in the model's parameters and its active parameters, but not computed as the
     * layers are. The input embedding is a lookup: a step reads one row per token, not the table. The output
     * projection gives the logits of the positions a step samples only, one per sequence (and each draft position it
     * verifies), not of every token it computes: vLLM's model runner multiplies {@code hidden_states[logits_indices]},
     * the last scheduled token of each request ({@code vllm/v1/worker/gpu_model_runner.py}, {@code execute_model}),
     * SGLang's logits processor prunes a prefill to {@code hidden_states[last_index]}, each sequence's last token
     * ({@code python/sglang/srt/layers/logits_processor.py}, unless input logprobs are asked for). When the two are one
     * tied matrix, the output projection still reads it whole each step.
     *
     * @param parameters vocabulary size x hidden size: one table's
     * @param tied       whether the output projection is the input embedding ({@code tie_word_embeddings})
     */
    public record Embeddings(double parameters, boolean tied) {
        /** No tables apart from the layers: the tests' hand-made models. */
        public static final Embeddings NONE = new Embeddings(0, false);

        public Embeddings {
            if (!(parameters >= 0) || Double.isInfinite(parameters)) {
                throw new IllegalArgumentException("embedding parameters must be a finite number >= 0, got " + parameters);
            }
        }

        /** Parameters the tables add to the model's: one table tied, two untied. */
        public double inModel() {
            return parameters * (tied ? 1 : 2);
        }

        /** Parameters a step looks up rows of but does not stream: the input table when it is not the output one. */
        double lookedUp() {
            return tied ? 0 : parameters;
        }
    }

    /**
     * The bytes of 16-bit activations that the layers' elementwise kernels read and write per computed token, summed
     * over the layers: at a decode step's few rows a fraction of their launch floors, at prefill's thousands megabytes
     * that outlast them ({@link StepCostModel#elementwiseSeconds}).
     *
     * @param norms the two residual-add norms of each layer (input and residual read, both written), which every
     *              tensor-parallel rank runs whole
     * @param split rotary embedding on queries and keys, the KV cache write (keys and values read, the cache written), the
     *              MLP's activation (gate and up read, their product written), a sparse layer's sum of its experts'
     *              outputs: split over the ranks as the heads and the MLP are (a linear-attention layer's own kernels
     *              are not counted)
     * @param quantisedWhole what FP8 products' activation quantisation moves (the 16-bit input read, the FP8 one
     *              written) for the products that take the hidden state, whole on every rank: each layer's input
     *              projections, the MLP's first product, a shared expert's; counted where the GPU quantises activations
     * @param quantisedSplit the same for the products whose input is split over the ranks: the output projections, the
     *              MLP's second product, the routed experts' second
     */
    public record ActivationTraffic(double norms, double split, double quantisedWhole, double quantisedSplit) {
        /** None counted: a hand-made model. */
        public static final ActivationTraffic NONE = new ActivationTraffic(0, 0, 0, 0);

        public ActivationTraffic {
            if (!(norms >= 0) || !(split >= 0) || !(quantisedWhole >= 0) || !(quantisedSplit >= 0)
                    || Double.isInfinite(norms + split + quantisedWhole + quantisedSplit)) {
                throw new IllegalArgumentException("activation bytes must be finite and >= 0, got " + norms + ", " + split
                        + ", " + quantisedWhole + ", " + quantisedSplit);
            }
        }
    }

    /**
     * A model without sliding-window layers whose experts, if any, are stored as its other weights, and whose attention's
     * FLOPs are not counted (its KV reads are): the tests' hand-computed models.
     */
    public ModelProfile(String name, double parameters, double activeParameters, double bytesPerParameter,
                        double kvBytesPerToken, double stateBytesPerSequence, double nonLanguageBytes,
                        int maxPositionEmbeddings, double draftFraction, int hiddenSize, int layers, Experts experts) {
        this(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken, stateBytesPerSequence,
                nonLanguageBytes, ContextLength.of(maxPositionEmbeddings), draftFraction, hiddenSize, layers, experts,
                Window.NONE, bytesPerParameter, Integer.MAX_VALUE, 0, 0, Embeddings.NONE, ActivationTraffic.NONE, LowBitWeights.NONE);
    }

    /** A dense model: every weight is read by every step. */
    public ModelProfile(String name, double parameters, double activeParameters, double bytesPerParameter,
                        double kvBytesPerToken, double stateBytesPerSequence, double nonLanguageBytes,
                        int maxPositionEmbeddings, double draftFraction, int hiddenSize, int layers) {
        this(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken, stateBytesPerSequence,
                nonLanguageBytes, maxPositionEmbeddings, draftFraction, hiddenSize, layers, Experts.NONE);
    }

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
        java.util.Objects.requireNonNull(window, "window");
        // a model whose every layer slides (Mistral 7B v0.1) has no full layer's KV
        if (!(kvBytesPerToken >= 0 && kvBytesPerToken + window.kvBytesPerToken() > 0)) {
            throw new IllegalArgumentException("kvBytesPerToken must be >= 0, and > 0 without a sliding window, got "
                    + kvBytesPerToken);
        }
        if (hiddenSize < 1 || layers < 1) {
            throw new IllegalArgumentException("hiddenSize and layers must be >= 1, got " + hiddenSize + " and " + layers);
        }
        java.util.Objects.requireNonNull(context, "context");
        java.util.Objects.requireNonNull(experts, "experts");
        java.util.Objects.requireNonNull(embeddings, "embeddings");
        if (embeddings.inModel() > activeParameters) {
            throw new IllegalArgumentException("the embeddings' parameters exceed the model's active " + activeParameters);
        }
        requirePositive("expertBytesPerParameter", expertBytesPerParameter);
        if (kvSplit < 1 || attentionHeads < 0) {
            throw new IllegalArgumentException("kvSplit must be >= 1 and attentionHeads >= 0, got " + kvSplit + " and "
                    + attentionHeads);
        }
        if (experts.stored() > parameters) {
            throw new IllegalArgumentException("the routed experts' parameters exceed the model's " + parameters);
        }
        if (!(attentionFlopsPerPair >= 0)) {
            throw new IllegalArgumentException("attentionFlopsPerPair must be >= 0, got " + attentionFlopsPerPair);
        }
        java.util.Objects.requireNonNull(activationTraffic, "activationTraffic");
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
     * so a draft token reads about 0.87e9 / 9e9 = 0.1 of the weights. Its full-attention layers are given 16 query heads of
     * dimension 256 (Qwen3.5's 4,096-wide layout, assumed: no config of the 9B was read), 4 x 16 x 256 FLOPs a layer per
     * query and key token; at the reference's prompts of hundreds of tokens they add under 0.1% to a prefill. Its
     * vocabulary's tables are not told apart from its layers ({@link Embeddings#NONE}): every one of the 9e9 is read and
     * multiplied as a layer's, the figure the engines' constants were fitted with. Taken apart as the Qwen3.5 family
     * publishes them (248,320 x 4096, untied: Qwen3.5-35B-A3B's config, THUDM/slime's Qwen3.5-27B arguments), the refit
     * put the held-out rate-16 blocks 22% slow: with no config of the 9B, the profile stays as fitted.
     *
     * @param name the model id to report (the study's model name; the profile's numbers do not change)
     */
    public static ModelProfile qwen35_9b(String name) {
        return new ModelProfile(name, 9e9, 9e9, 2, 2.0 * 8 * 4 * 256 * 2, 24.0 * 32 * 128 * 128 * 4,
                2.0 * 1024 * 1024 * 1024, ContextLength.of(262_144), 0.87e9 / 9e9, 4096, 32, Experts.NONE, Window.NONE, 2,
                Integer.MAX_VALUE, 0, 8.0 * 4 * 16 * 256, Embeddings.NONE,
                ActivationTraffic.NONE, LowBitWeights.NONE);
    }

    /**
     * The built-in profile of a model.
     *
     * @throws IllegalArgumentException for a model without one, naming those there are
     */
    public static ModelProfile forModel(String name) {
        return builtIn(name).orElseThrow(() -> new IllegalArgumentException("no built-in profile of " + name
                + "; built in: " + String.join(", ", builtInNames())));
    }

    /** The repositories' names of the built-in profiles, in lower case. */
    static List<String> builtInNames() {
        List<String> names = new java.util.ArrayList<>(BUILT_IN.keySet());
        names.add("qwen3.5-9b");
        return names.stream().sorted().toList();
    }

    /**
     * The built-in profile of a model, by its repository's name (any case, any owner): Qwen3.5-9B, the reference's; and,
     * read from their published {@code config.json} ({@link #fromConfig}, {@link ModelConfigs}), Qwen3-8B and
     * Qwen3-14B (also in FP8), Qwen3-32B, Qwen2.5-7B-Instruct, Qwen2.5-72B-Instruct, Meta-Llama-3-8B-Instruct,
     * Llama-3.1-8B-Instruct, Llama-3.1-70B-Instruct and Llama-3.3-70B-Instruct (dense), Qwen3-30B-A3B, Qwen3-235B-A22B-Instruct-2507 (also in FP8), gpt-oss-20b and
     * gpt-oss-120b, DeepSeek-R1 and its 0528 update, DeepSeek-V3 and its 0324 update (their architecture), GLM-4.5-Air,
     * GLM-4.6 and GLM-4.6-FP8 (mixtures of experts), and Qwen3.5-35B-A3B and Qwen3-Next-80B-A3B-Instruct, also in FP8
     * (hybrid mixtures of experts); empty for any other.
     */
    public static java.util.Optional<ModelProfile> builtIn(String name) {
        // the repository's name alone: the 2507 updates and the base models have other contexts
        String n = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        if (n.equals("qwen3.5-9b")) {
            return java.util.Optional.of(qwen35_9b(name));
        }
        return builtInConfig(name).map(config -> fromConfig(name, config));
    }

    /**
     * The {@code config.json} a built-in profile is read from ({@link #builtIn}); empty for Qwen3.5-9B, whose profile is
     * fitted rather than read, and for a model that is not built in.
     */
    static java.util.Optional<String> builtInConfig(String name) {
        return java.util.Optional.ofNullable(BUILT_IN.get(name.substring(name.lastIndexOf('/') + 1)
                .toLowerCase(Locale.ROOT)));
    }

    /**
     * The transformers class a built-in model's {@code config.json} names first ({@code architectures}), e.g. {@code
     * GptOssForCausalLM}: the name the engines' own per-architecture rules match; empty for a model without a built-in
     * config ({@link #builtInConfig}).
     */
    public static java.util.Optional<String> builtInArchitecture(String name) {
        return builtInConfig(name).map(config -> {
            try {
                return JSON.readTree(config).path("architectures").path(0).asText();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("a built-in config of " + name + " does not parse", e);
            }
        });
    }

    /** Built-in {@code config.json}s, by the repository's name in lower case. */
    private static final java.util.Map<String, String> BUILT_IN = java.util.Map.ofEntries(
            java.util.Map.entry("qwen3-8b", ModelConfigs.QWEN3_8B),
            java.util.Map.entry("qwen3-8b-fp8", ModelConfigs.QWEN3_8B_FP8),
            java.util.Map.entry("qwen3-14b", ModelConfigs.QWEN3_14B),
            java.util.Map.entry("qwen3-14b-fp8", ModelConfigs.QWEN3_14B_FP8),
            java.util.Map.entry("qwen3-32b", ModelConfigs.QWEN3_32B),
            java.util.Map.entry("qwen3-30b-a3b", ModelConfigs.QWEN3_30B_A3B),
            java.util.Map.entry("qwen3-235b-a22b-instruct-2507", ModelConfigs.QWEN3_235B_A22B_2507),
            java.util.Map.entry("qwen3-235b-a22b-instruct-2507-fp8", ModelConfigs.QWEN3_235B_A22B_2507_FP8),
            java.util.Map.entry("qwen2.5-7b-instruct", ModelConfigs.QWEN25_7B_INSTRUCT),
            java.util.Map.entry("qwen2.5-72b-instruct", ModelConfigs.QWEN25_72B_INSTRUCT),
            java.util.Map.entry("qwen3.5-35b-a3b", ModelConfigs.QWEN35_35B_A3B),
            java.util.Map.entry("qwen3-next-80b-a3b-instruct", ModelConfigs.QWEN3_NEXT_80B_A3B),
            java.util.Map.entry("qwen3-next-80b-a3b-instruct-fp8", ModelConfigs.QWEN3_NEXT_80B_A3B_FP8),
            java.util.Map.entry("gpt-oss-20b", ModelConfigs.GPT_OSS_20B),
            java.util.Map.entry("gpt-oss-120b", ModelConfigs.GPT_OSS_120B),
            java.util.Map.entry("deepseek-r1-0528", ModelConfigs.DEEPSEEK_R1_0528),
            // the first R1's config.json is the one the 0528 update kept (see ModelConfigs.DEEPSEEK_R1_0528)
            java.util.Map.entry("deepseek-r1", ModelConfigs.DEEPSEEK_R1_0528),
            // R1 is DeepSeek-V3's architecture trained further, and V3-0324 an update of V3 with the same config.json
            java.util.Map.entry("deepseek-v3", ModelConfigs.DEEPSEEK_R1_0528),
            java.util.Map.entry("deepseek-v3-0324", ModelConfigs.DEEPSEEK_R1_0528),
            java.util.Map.entry("deepseek-v3.2", ModelConfigs.DEEPSEEK_V32),
            // V3.2-Exp, the first release of the architecture, and V3.2 share one config.json's shape
            java.util.Map.entry("deepseek-v3.2-exp", ModelConfigs.DEEPSEEK_V32),
            java.util.Map.entry("glm-4.5-air", ModelConfigs.GLM_45_AIR),
            java.util.Map.entry("glm-4.6", ModelConfigs.GLM_46),
            java.util.Map.entry("glm-4.6-fp8", ModelConfigs.GLM_46_FP8),
            java.util.Map.entry("glm-5", ModelConfigs.GLM_5),
            // GLM-5.1 is GLM-5's architecture trained further (ModelConfigs.GLM_5)
            java.util.Map.entry("glm-5.1", ModelConfigs.GLM_5),
            java.util.Map.entry("glm-5-fp8", ModelConfigs.GLM_5_FP8),
            java.util.Map.entry("glm-5.1-fp8", ModelConfigs.GLM_5_FP8),
            java.util.Map.entry("gemma-4-31b-it", ModelConfigs.GEMMA4_31B),
            java.util.Map.entry("gemma-4-31b", ModelConfigs.GEMMA4_31B),
            java.util.Map.entry("gemma-4-26b-a4b-it", ModelConfigs.GEMMA4_26B_A4B),
            java.util.Map.entry("gemma-4-26b-a4b", ModelConfigs.GEMMA4_26B_A4B),
            java.util.Map.entry("meta-llama-3-8b-instruct", ModelConfigs.META_LLAMA3_8B_INSTRUCT),
            java.util.Map.entry("llama-3.1-8b-instruct", ModelConfigs.LLAMA31_8B_INSTRUCT),
            java.util.Map.entry("meta-llama-3.1-8b-instruct", ModelConfigs.LLAMA31_8B_INSTRUCT),
            java.util.Map.entry("llama-3.1-70b-instruct", ModelConfigs.LLAMA31_70B_INSTRUCT),
            java.util.Map.entry("meta-llama-3.1-70b-instruct", ModelConfigs.LLAMA31_70B_INSTRUCT),
            java.util.Map.entry("llama-3.3-70b-instruct", ModelConfigs.LLAMA31_70B_INSTRUCT));

    /**
     * A profile from a Hugging Face {@code config.json} of a decoder (Llama, Qwen2/3, Mistral, their
     * mixture-of-experts forms: Qwen2/3-MoE, Mixtral; hybrids of full and linear attention such as
     * Qwen3-Next and Qwen3.5; full and sliding-window layers as {@code layer_types} lists them or the architecture's
     * pattern gives them: gpt-oss, Gemma 2 and 3, Mistral 7B v0.1's window on every layer;
     * multi-head latent attention and DeepSeek's expert keys: DeepSeek V3/R1, Kimi K2, GLM-4.5). Parameters are counted from the shapes: embeddings and, unless tied, the output
     * head; per full-attention layer the q, k, v and o projections (and, in the Qwen hybrids, the output gate,
     * a second q-sized projection); per linear-attention (Gated DeltaNet) layer its q/k/v/z input projection,
     * the per-head decay and beta, the causal convolution and the output projection; per layer a gated MLP
     * (3 x hidden x intermediate) or, in a sparse layer, every expert's MLP plus the router (and a shared expert
     * where there is one), of which the routed {@code num_experts_per_tok} are active. Norms and biases are left
     * out (under 0.1%). A token of context costs 2 (K and V) x full-attention layers x KV heads x head dimension
     * x bytes (latent attention: {@code kv_lora_rank + qk_rope_head_dim} values a layer; a sliding layer only within
     * its window, {@link Window}); a sequence holds, per linear-attention layer, its recurrent state (value heads x key dimension x
     * value dimension, fp32) and its convolution window.
     *
     * @param name the model id to report
     * @param json the file's text; a {@code text_config} object inside it is read instead when present
     * @throws IllegalArgumentException naming the field that is missing or not what was expected, or the architecture
     *                                  the config names where it is not one the simulated engine models
     *                                  ({@link ModelArchitecture})
     */
    public static ModelProfile fromConfig(String name, String json) {
        return fromConfig(name, json, 0);
    }

    /**
     * As {@link #fromConfig(String, String)}, with the {@code model_max_length} of the {@code tokenizer_config.json}
     * beside the config (0 for none), which vLLM's context takes where it is smaller ({@link ContextLength}).
     */
    static ModelProfile fromConfig(String name, String json, int tokenizerMaxLength) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("config.json of " + name + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("config.json of " + name + ": expected a JSON object");
        }
        ModelArchitecture architecture = ModelArchitecture.of(root, name);
        root = architecture.withQuantisationAtTop(root);
        JsonNode c = architecture.textConfig(root, name);
        unmodelled(root, c, name, architecture);
        double hidden = count(c, name, "hidden_size");
        double layers = count(c, name, "num_hidden_layers");
        double heads = count(c, name, "num_attention_heads");
        // null as transformers reads it: as many KV heads as heads, a head dimension of hidden size over heads
        double kvHeads = c.hasNonNull("num_key_value_heads") ? count(c, name, "num_key_value_heads") : heads;
        double headDim = c.hasNonNull("head_dim") ? count(c, name, "head_dim") : hidden / heads;
        double vocab = count(c, name, "vocab_size");
        boolean tied = c.path("tie_word_embeddings").asBoolean(false);
        double experts = c.has("num_experts") ? count(c, name, "num_experts")
                : c.has("num_local_experts") ? count(c, name, "num_local_experts")
                : c.has("n_routed_experts") ? count(c, name, "n_routed_experts") : 0;
        Embeddings tables = new Embeddings(vocab * hidden, tied);
        double embeddings = tables.inModel();
        String[] types = layerTypes(c, name, (int) layers, architecture);
        int linearLayers = 0;
        int slidingLayers = 0;
        int chunkedLayers = 0;
        for (String type : types) {
            linearLayers += type.equals(LINEAR) ? 1 : 0;
            slidingLayers += type.equals(SLIDING) ? 1 : 0;
            chunkedLayers += type.equals(CHUNKED) ? 1 : 0;
        }
        if (slidingLayers > 0 && chunkedLayers > 0) {
            throw new IllegalArgumentException("config.json of " + name + ": \"layer_types\" has both sliding_attention"
                    + " and chunked_attention layers, which the simulated engine does not model together; it would give"
                    + " this model another model's figures, so it is refused");
        }
        boolean chunked = chunkedLayers > 0;
        // the layers that attend part of the context: a sliding window or their own chunk
        slidingLayers += chunkedLayers;
        // every attention layer, sliding ones included, has the q/k/v/o projections
        int fullLayers = (int) layers - linearLayers;
        // the Qwen hybrids gate their full attention's output: a second query-sized projection (their model code
        // applies it whatever attn_output_gate says)
        boolean outputGate = architecture.gatesAttentionOutput();
        double attention = hidden * heads * headDim * (outputGate ? 3 : 2) + hidden * kvHeads * headDim * 2;
        // bytes of one token's KV in one attention layer, in the activations' dtype (set below)
        double kvValuesPerLayer = 2 * kvHeads * headDim;
        // FLOPs per query and key token in one layer: q.k and the weighted v, a multiply-add per dimension each
        double flopsPerPair = 4 * heads * headDim;
        // the values rotary embedding reads and writes a token in one attention layer: its queries' and keys' rope parts
        double ropeValues = (heads + kvHeads) * headDim;
        // the width of the output projection's input, the attention's output
        double attentionOut = heads * headDim;
        boolean latent = c.hasNonNull("kv_lora_rank");
        // DeepSeek Sparse Attention (ModelArchitecture#sparseAttention): its indexer's key cache and products per layer
        // and token pair, the keys each query attends, and latent attention's FLOPs per pair as the sparse kernels run it
        boolean sparse = latent && architecture.sparseAttention();
        double indexerKvPerLayer = 0;
        double indexerFlopsPerPair = 0;
        double sparseFlopsPerPair = 0;
        // one indexer's weights, and the layers that have one (every layer but those reusing an earlier one's choice)
        double indexer = 0;
        int indexerLayers = 0;
        int topK = 0;
        if (latent) {
            // multi-head latent attention (DeepSeek-V2/V3, Kimi K2; modeling_deepseek.py's DeepseekV3Attention): queries
            // through a low-rank q_a/q_b pair (or one projection without q_lora_rank), keys and values compressed into
            // kv_lora_rank values plus one rope key shared by the heads (kv_a), expanded per head by kv_b; the cache keeps
            // only the compressed values and the rope key
            double rope = count(c, name, "qk_rope_head_dim");
            double nope = count(c, name, "qk_nope_head_dim");
            double value = count(c, name, "v_head_dim");
            double kvRank = count(c, name, "kv_lora_rank");
            double query = c.hasNonNull("q_lora_rank")
                    ? hidden * count(c, name, "q_lora_rank") + count(c, name, "q_lora_rank") * heads * (nope + rope)
                    : hidden * heads * (nope + rope);
            attention = query + hidden * (kvRank + rope) + kvRank * heads * (nope + value) + heads * value * hidden;
            kvValuesPerLayer = kvRank + rope;
            // prefilled as multi-head attention on the expanded keys and values (the engines' MLA prefill path)
            flopsPerPair = 2 * heads * (nope + rope) + 2 * heads * value;
            ropeValues = (heads + 1) * rope;
            attentionOut = heads * value;
            if (sparse) {
                double indexHeads = count(c, name, "index_n_heads");
                double indexDim = count(c, name, "index_head_dim");
                topK = (int) count(c, name, "index_topk");
                // vLLM's Indexer (deepseek_v2.py): per-head queries from the low-rank query (wq_b), one key from the
                // hidden state (wk), a weight per head (weights_proj)
                indexer = count(c, name, "q_lora_rank") * indexHeads * indexDim + hidden * indexDim + hidden * indexHeads;
                indexerLayers = indexerLayers(c, name, fullLayers);
                // its key cache holds FP8 keys and a 4-byte scale per 128 values, whatever the KV cache's dtype
                // (DeepseekV32IndexerCache: head_dim + head_dim // quant_block_size * 4, uint8: 132 bytes)
                indexerKvPerLayer = indexDim + Math.ceil(indexDim / 128) * 4;
                indexerFlopsPerPair = 2 * indexHeads * indexDim;
                // FlashMLA's sparse kernels attend the latent form (head size 576: kv_lora_rank + rope), the weighted
                // sum over kv_lora_rank (FlashMLASparseBackend.get_supported_head_sizes)
                sparseFlopsPerPair = 2 * heads * (kvRank + rope) + 2 * heads * kvRank;
            }
        }
        // the layers attending the whole context where they differ from the sliding ones: Gemma 4's heads of
        // global_head_dim and, where keys are values (attention_k_eq_v), num_global_key_value_heads KV heads; vLLM
        // holds and multiplies a value projection there too, the key projection's copy ("duplicate k_proj as v_proj",
        // models/gemma4.py), and caches keys and values both
        double wholeAttention = attention;
        double wholeKvValues = kvValuesPerLayer;
        double wholePairFlops = flopsPerPair;
        double wholeRopeValues = ropeValues;
        double wholeOut = attentionOut;
        double wholeKvHeads = kvHeads;
        if (architecture.isGemma4()) {
            double globalDim = count(c, name, "global_head_dim");
            if (c.path("attention_k_eq_v").asBoolean(false)) {
                wholeKvHeads = count(c, name, "num_global_key_value_heads");
            }
            wholeAttention = hidden * heads * globalDim * 2 + hidden * wholeKvHeads * globalDim * 2;
            wholeKvValues = 2 * wholeKvHeads * globalDim;
            wholePairFlops = 4 * heads * globalDim;
            wholeRopeValues = (heads + wholeKvHeads) * globalDim;
            wholeOut = heads * globalDim;
        }
        double linearAttention = 0;
        double linearOut = 0;
        double statePerSequence = 0;
        if (linearLayers > 0) {
            double keyDim = count(c, name, "linear_num_key_heads") * count(c, name, "linear_key_head_dim");
            double valueHeads = count(c, name, "linear_num_value_heads");
            double valueDim = valueHeads * count(c, name, "linear_value_head_dim");
            linearOut = valueDim;
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
        // DeepSeek's keys (DeepSeek V3, Kimi K2, GLM-4.5): the first first_k_dense_replace layers dense, then every
        // moe_layer_freq-th sparse
        int firstSparse = c.has("first_k_dense_replace") ? (int) c.path("first_k_dense_replace").asLong() : 0;
        int sparseFrequency = c.has("moe_layer_freq") ? (int) count(c, name, "moe_layer_freq") : 1;
        int sparseLayers = 0;
        int aSparseLayer = -1;
        int aDenseLayer = -1;
        for (int layer = 0; layer < (int) layers; layer++) {
            if (experts > 0 && !denseOnly.contains(layer) && (layer + 1) % sparseStep == 0 && layer >= firstSparse
                    && layer % sparseFrequency == 0) {
                sparseLayers++;
                aSparseLayer = aSparseLayer < 0 ? layer : aSparseLayer;
            } else {
                aDenseLayer = aDenseLayer < 0 ? layer : aDenseLayer;
            }
        }
        int denseLayers = (int) layers - sparseLayers;
        // each kind of MLP is read from the config only when some layer has it
        double denseMlp = denseLayers == 0 ? 0 : 3 * hidden * count(c, name, "intermediate_size");
        double sparseMlp = 0;
        double activeSparseMlp = 0;
        double routedExpert = 0;
        // ActivationTraffic.split, in values
        int wholeLayers = fullLayers - slidingLayers;
        double elementwiseValues = slidingLayers * (2 * ropeValues + 2 * kvValuesPerLayer)
                + wholeLayers * (2 * wholeRopeValues + 2 * wholeKvValues) + denseLayers * denseMlp / hidden;
        // the inputs FP8 products quantise (ActivationTraffic.quantisedWhole, quantisedSplit): every layer's input
        // projections and the MLP's first product take the hidden state, whole on every rank; the output projections
        // and the MLP's second take their split widths
        double quantisedWhole = layers * 2 * hidden;
        double quantisedSplit = slidingLayers * attentionOut + wholeLayers * wholeOut + linearLayers * linearOut
                + denseLayers * denseMlp / (3 * hidden);
        if (sparseLayers > 0) {
            double expert = 3 * hidden * count(c, name, c.has("moe_intermediate_size") ? "moe_intermediate_size"
                    : "intermediate_size");
            double shared = c.has("n_shared_experts") ? c.path("n_shared_experts").asLong(0) * expert
                    : c.has("shared_expert_intermediate_size")
                    ? 3 * hidden * count(c, name, "shared_expert_intermediate_size") : 0;
            double router = hidden * experts;
            sparseMlp = experts * expert + shared + router;
            activeSparseMlp = count(c, name, "num_experts_per_tok") * expert + shared + router;
            routedExpert = expert;
            double perToken = count(c, name, "num_experts_per_tok");
            elementwiseValues += sparseLayers * ((perToken * expert + shared) / hidden + (perToken + 1) * hidden);
            quantisedWhole += sparseLayers * (shared > 0 ? hidden : 0);
            quantisedSplit += sparseLayers * (perToken * expert + shared) / (3 * hidden);
        }
        double mixers = slidingLayers * attention + wholeLayers * wholeAttention + linearLayers * linearAttention
                + indexerLayers * indexer;
        double total = embeddings + mixers + denseLayers * denseMlp + sparseLayers * sparseMlp;
        // a native MTP head (mtp_num_hidden_layers, DeepSeek's num_nextn_predict_layers) is a full-attention decoder
        // layer with the model's MLP (and, under sparse attention, always an indexer of its own: vLLM's skip_topk is
        // never set on an MTP layer), and its logits read the output projection; without one, a draft costs one layer
        int mtpLayers = mtpLayers(c, name);
        double draftFraction = mtpLayers == 0 ? 1.0 / layers
                : (mtpLayers * (attention + indexer + (sparseLayers > 0 ? sparseMlp : denseMlp)) + vocab * hidden) / total;
        double active = embeddings + mixers + denseLayers * denseMlp + sparseLayers * activeSparseMlp;
        double bytes = bytesPerParameter(c, name);
        // an FP8 checkpoint names its method at the top level; its KV cache stays in the activations' dtype
        String quant = root.path("quantization_config").path("quant_method").asText("");
        Experts routed = sparseLayers == 0 ? Experts.NONE : new Experts(sparseLayers, (int) experts,
                (int) count(c, name, "num_experts_per_tok"), routedExpert);
        if (quant.equals(MXFP4) && sparseLayers == 0) {
            throw new IllegalArgumentException("config.json of " + name + ": \"quantization_config\": MXFP4 weights of a"
                    + " model without routed experts are not modelled (MXFP4 is modelled on the experts only, as gpt-oss"
                    + " stores them); it would give this model another model's figures, so it is refused");
        }
        double kvPerLayer = kvValuesPerLayer * bytes;
        Window window = slidingLayers == 0 ? Window.NONE
                : new Window((int) count(c, name, chunked ? "attention_chunk_size" : "sliding_window"),
                        slidingLayers * kvPerLayer, slidingLayers * flopsPerPair, architecture.sglangWindow(), false,
                        chunked ? Reach.CHUNK : Reach.LAST);
        // what attends the whole context: the full layers, or under sparse attention every layer's indexer
        double wholeKv = wholeLayers * wholeKvValues * bytes;
        double wholeFlopsPerPair = wholeLayers * wholePairFlops;
        if (sparse) {
            // SGLang's own sparse attention is not modelled (SimParams refuses it): the pool's rule is never read
            window = new Window(topK, fullLayers * kvPerLayer, fullLayers * sparseFlopsPerPair, SglangWindow.ONE_POOL,
                    true, Reach.TOP_K);
            wholeKv = indexerLayers * indexerKvPerLayer;
            wholeFlopsPerPair = indexerLayers * indexerFlopsPerPair;
        }
        ModelProfile profile = new ModelProfile(name, total, active, bytes, wholeKv,
                statePerSequence, visionParameters(architecture, root, hidden, name) * bytes,
                ContextLength.fromConfig(c, architecture.isGemma3(), tokenizerMaxLength, name), draftFraction, (int) hidden,
                (int) layers, routed, window, quant.equals(MXFP4) ? MXFP4_BYTES_PER_PARAMETER : bytes,
                latent ? 1 : (int) Math.min(kvHeads, wholeKvHeads), (int) heads, wholeFlopsPerPair, tables,
                new ActivationTraffic(layers * 2 * 4 * hidden * ACTIVATION_BYTES, elementwiseValues * ACTIVATION_BYTES,
                        quantisedWhole * QUANTISATION_BYTES, quantisedSplit * QUANTISATION_BYTES), LowBitWeights.NONE);
        if (GroupQuantised.names(quant)) {
            return profile.withLowBitWeights(LowBitWeights.INTEGER,
                    GroupQuantised.bytesPerParameter(root.path("quantization_config")));
        }
        boolean nvfp4 = quant.startsWith(ModelOpt.METHOD) && ModelOpt.nvfp4(root.path("quantization_config"));
        if (quant.equals(COMPRESSED_TENSORS) || nvfp4) {
            int anAttentionLayer = 0;
            while (anAttentionLayer < types.length - 1 && types[anAttentionLayer].equals(LINEAR)) {
                anAttentionLayer++;
            }
            String shared = sparseLayers == 0 ? null : c.path("n_shared_experts").asLong(0) > 0 ? "shared_experts"
                    : c.has("shared_expert_intermediate_size") ? "shared_expert" : null;
            String layerModules = architecture.moduleLayers();
            List<CompressedTensors.Part> parts = layerModules == null ? List.of()
                    : CompressedTensors.parts(layerModules, anAttentionLayer, latent, c.hasNonNull("q_lora_rank"),
                    aDenseLayer, aSparseLayer, shared, root.has("vision_config") ? architecture.visionModules() : List.of());
            CompressedTensors.Scheme scheme;
            try {
                scheme = nvfp4 ? ModelOpt.nvfp4Scheme(root.path("quantization_config"), parts)
                        : CompressedTensors.scheme(root.path("quantization_config"), parts);
            } catch (IllegalArgumentException e) {
                throw refused(name, "\"quantization_config\": " + e.getMessage());
            }
            return scheme.fp8() ? profile.withFp8Weights(scheme.weights()) : scheme.routedExpertsOnly()
                    ? profile.withLowBitExperts(scheme.weights(), scheme.bytesPerParameter())
                    : profile.withLowBitWeights(scheme.weights(), scheme.bytesPerParameter());
        }
        // ModelOpt reaches here only as FP8 on every linear layer (ModelOpt), a scale per tensor; a native FP8 checkpoint
        // with a weight_block_size scales each block of it (vLLM's Fp8Config: weight_block_size set, block-wise)
        if (quant.equals("fp8")) {
            return profile.withFp8Weights(root.path("quantization_config").has("weight_block_size")
                    ? LowBitWeights.FP8_BLOCK : LowBitWeights.NONE);
        }
        return quant.startsWith(ModelOpt.METHOD) ? profile.withFp8Weights() : profile;
    }

    /**
     * Parameters of a multimodal model's vision tower and its projector into the language model, which the engines load
     * beside it (its weights; the memory its forward takes is not counted); 0 for a text model or one without a
     * {@code vision_config}. Gemma 3's, Qwen3.5's (Qwen3-VL's), Qwen2.5-VL's and Mistral 3's towers are read ({@link
     * #gemma3Vision}, {@link #qwen35Vision}, {@link #qwen25Vision}, {@link #mistral3Vision}).
     */
    private static double visionParameters(ModelArchitecture architecture, JsonNode root, double textHidden, String name) {
        JsonNode v = root.path("vision_config");
        if (!v.isObject()) {
            return 0;
        }
        return switch (architecture) {
            case GEMMA3 -> gemma3Vision(v, textHidden, name);
            case GEMMA4 -> gemma4Vision(v, textHidden, name);
            case QWEN3_5, QWEN3_5_MOE, QWEN3_VL, QWEN3_VL_MOE -> qwen35Vision(v, name);
            case MISTRAL3 -> mistral3Vision(v, root, textHidden, name);
            case LLAMA4 -> llama4Vision(v, textHidden, name);
            case QWEN2_5_VL -> qwen25Vision(v, name);
            case KIMI_K25 -> kimiK25Vision(v, textHidden, name);
            default -> 0;
        };
    }

    /**
     * Qwen2.5-VL's tower as vLLM builds it ({@code Qwen2_5_VisionTransformer} in {@code models/qwen2_5_vl.py}, v0.26.0): a
     * patch embedding over {@code temporal_patch_size} frames without bias; per layer two RMS norms, q/k/v and an output
     * projection with biases, and a gated MLP with biases; positions rotary (no table); then the merger of
     * {@code spatial_merge_size}^2 patches (an RMS norm, a square layer of that width and one to {@code
     * out_hidden_size}, with biases). Every key is read from the config, the channels as {@code in_chans} (the first
     * published configs) or {@code in_channels} (3 unless stated). Qwen2.5-VL-7B's: 0.677e9.
     */
    private static double qwen25Vision(JsonNode v, String name) {
        double h = v.path("hidden_size").asDouble(0);
        double i = v.path("intermediate_size").asDouble(0);
        double layers = v.path("depth").asDouble(0);
        double patch = v.path("patch_size").asDouble(0);
        double frames = v.path("temporal_patch_size").asDouble(0);
        double merged = h * Math.pow(v.path("spatial_merge_size").asDouble(0), 2);
        double out = v.path("out_hidden_size").asDouble(0);
        double channels = v.path("in_chans").asDouble(v.path("in_channels").asDouble(3));
        requireDimensions(v, name, h, i, layers, patch, frames, merged, out, channels);
        double layer = 2 * h + (3 * h * h + 3 * h) + (h * h + h) + (2 * h * i + 2 * i) + (i * h + h);
        return channels * frames * patch * patch * h + layers * layer + h + merged * merged + merged + merged * out + out;
    }

    /**
     * Llama 4's vision encoder and projector as vLLM builds them ({@code Llama4VisionModel}, {@code
     * Llama4VisionPixelShuffleMLP}, {@code Llama4MultiModalProjector} in {@code models/mllama4.py}, v0.26.0): a patch
     * embedding without bias, a class embedding, a position embedding per patch and one more, two layer norms; per
     * layer q/k/v and output projections with biases, a two-layer MLP with biases and two layer norms; the pixel-shuffle
     * adapter's two layers (from {@code intermediate_size}, the shuffled width, to {@code projector_input_dim}, then
     * {@code projector_output_dim}, with bias as {@code multi_modal_projector_bias} says); the projector from {@code
     * vision_output_dim} to the text width, no bias. Keys left out are {@code Llama4VisionConfig}'s defaults. Llama 4
     * Scout's: 0.872e9.
     */
    private static double llama4Vision(JsonNode v, double textHidden, String name) {
        double h = v.path("hidden_size").asDouble(768);
        double i = v.path("intermediate_size").asDouble(5632);
        double layers = v.path("num_hidden_layers").asDouble(34);
        double patch = v.path("patch_size").asDouble(14);
        double side = Math.floor(v.path("image_size").asDouble(448) / patch);
        double channels = v.path("num_channels").asDouble(3);
        double adapterIn = v.path("projector_input_dim").asDouble(4096);
        double adapterOut = v.path("projector_output_dim").asDouble(4096);
        double output = v.path("vision_output_dim").asDouble(7680);
        requireDimensions(v, name, h, i, layers, side, channels, adapterIn, adapterOut, output);
        double bias = v.path("multi_modal_projector_bias").asBoolean(false) ? adapterIn + adapterOut : 0;
        double encoder = channels * patch * patch * h + h + (side * side + 1) * h + 4 * h
                + layers * (4 * h * h + 4 * h + 2 * h * i + i + h + 4 * h);
        return encoder + i * adapterIn + adapterIn * adapterOut + bias + output * textHidden;
    }

    /**
     * Kimi K2.5's MoonViT tower and its projector as vLLM builds them ({@code MoonViT3dPretrainedModel} and {@code
     * KimiK25MultiModalProjector}, {@code models/kimi_k25_vit.py}): a patch convolution over 3 channels with bias, a
     * learnt position table of {@code init_pos_emb_height} x {@code init_pos_emb_width}, per layer q/k/v and an output
     * projection with biases, a two-matrix MLP with biases and two layer norms, a final layer norm; then the projector's
     * layer norm and two layers with biases from the {@code merge_kernel_size} patches merged into one (4 x the width) to
     * that width and into {@code mm_hidden_size}, which {@code KimiK25Config} takes as the text width where it is left
     * out or equals the tower's. The widths are read under the checkpoint's own names ({@code vt_hidden_size}, ...) or
     * the standard ones, as {@code KimiK25VisionConfig} reads them, else its defaults (1,152 wide, MLP 4,304, 27 layers,
     * patches of 14, 64 x 64 positions); Kimi K2.5's tower: 0.417e9 (its card: "MoonViT, 400M"), 0.471e9 with the
     * projector. Its later forms (another projector, norm or MLP type) are refused by name.
     */
    private static double kimiK25Vision(JsonNode v, double textHidden, String name) {
        for (String[] form : new String[][] {{"mm_projector_type", "patchmerger"}, {"pos_emb_type", "divided_fixed"},
                {"merge_type", "sd2_tpool"}, {"norm_type", "layernorm"}, {"mlp_type", "mlp2"}}) {
            if (!v.path(form[0]).asText(form[1]).equals(form[1])) {
                throw new IllegalArgumentException("config.json of " + name + ": \"vision_config\" has " + form[0] + " "
                        + v.get(form[0]) + ", a form of Kimi K2.5's tower the simulated engine has not read (it reads "
                        + form[1] + "); it would give this model another model's figures, so it is refused");
            }
        }
        double h = either(v, "hidden_size", "vt_hidden_size", 1152);
        double i = either(v, "intermediate_size", "vt_intermediate_size", 4304);
        double layers = either(v, "num_hidden_layers", "vt_num_hidden_layers", 27);
        double patch = v.path("patch_size").asDouble(14);
        double positions = v.path("init_pos_emb_height").asDouble(64) * v.path("init_pos_emb_width").asDouble(64);
        JsonNode kernel = v.path("merge_kernel_size");
        double merged = h * (kernel.isArray() ? kernel.path(0).asDouble(0) * kernel.path(1).asDouble(0) : 4);
        double out = v.hasNonNull("mm_hidden_size") && v.path("mm_hidden_size").asDouble() != h
                ? v.path("mm_hidden_size").asDouble() : textHidden;
        requireDimensions(v, name, merged, out);
        double encoder = visionEncoder(v, name, h, i, layers, 3 * patch * patch, positions);
        return encoder + 2 * h + 2 * h + merged * merged + merged + merged * out + out;
    }

    /** A key read under its standard name, else under the checkpoint's own, else the class default. */
    private static double either(JsonNode v, String standard, String own, double fallback) {
        return v.hasNonNull(standard) ? v.path(standard).asDouble() : v.path(own).asDouble(fallback);
    }

    /**
     * Mistral 3's Pixtral encoder and its projector, as vLLM builds them ({@code PixtralHFVisionModel} in {@code
     * models/pixtral.py}, {@code Mistral3MultiModalProjector} in {@code models/mistral3.py}, v0.26.0): a patch
     * convolution without bias, an RMS norm, per layer four attention projections and a gated MLP, none with bias, and
     * two norms (positions are rotary: no table); then a norm, the patch merger (a linear layer from {@code
     * spatial_merge_size}^2 patches to one, no bias) and two linear layers into the text width, with bias where {@code
     * multimodal_projector_bias} says. Keys left out are {@code PixtralVisionConfig}'s defaults (hidden 1,024, MLP 4,096,
     * 24 layers, 3 channels, patches of 16) and {@code Mistral3Config}'s (merge 2, no projector bias). Mistral Small
     * 3.1's: 0.439e9.
     */
    private static double mistral3Vision(JsonNode v, JsonNode root, double textHidden, String name) {
        double h = v.path("hidden_size").asDouble(1024);
        double i = v.path("intermediate_size").asDouble(4096);
        double layers = v.path("num_hidden_layers").asDouble(24);
        double patch = v.path("patch_size").asDouble(16);
        double channels = v.path("num_channels").asDouble(3);
        double merge = root.path("spatial_merge_size").asDouble(2);
        requireDimensions(v, name, h, i, layers, patch, channels, merge);
        double encoder = channels * patch * patch * h + h + layers * (4 * h * h + 3 * h * i + 2 * h);
        double bias = root.path("multimodal_projector_bias").asBoolean(false) ? 2 * textHidden : 0;
        return encoder + h + merge * merge * h * h + h * textHidden + textHidden * textHidden + bias;
    }

    /**
     * Gemma 3's SigLIP encoder (transformers' {@code modeling_siglip.py}) and its projector
     * ({@code Gemma3MultiModalProjector}: a vision-width x text-width matrix and a norm). Keys left out are
     * {@code SiglipVisionConfig}'s defaults (hidden 768, MLP 3,072, 12 layers, 3 channels, images of 224, patches of
     * 16). gemma-3-27b-it's: 0.423e9.
     */
    private static double gemma3Vision(JsonNode v, double textHidden, String name) {
        double h = v.path("hidden_size").asDouble(768);
        double patch = v.path("patch_size").asDouble(16);
        double encoder = visionEncoder(v, name, h, v.path("intermediate_size").asDouble(3072),
                v.path("num_hidden_layers").asDouble(12), v.path("num_channels").asDouble(3) * patch * patch,
                Math.pow(Math.floor(v.path("image_size").asDouble(224) / patch), 2));
        // a layer norm after the layers; the projector and its norm
        return encoder + 2 * h + h * textHidden + h;
    }

    /**
     * Gemma 4's vision encoder (transformers' {@code Gemma4VisionModel}, which vLLM builds from the config: {@code
     * AutoModel.from_config} in {@code models/gemma4_mm.py}) and its projector ({@code Gemma4MultimodalEmbedder}: one
     * matrix from the vision width to the text width, no bias): a patch projection of 3 x {@code patch_size}^2 values
     * without bias and a table of {@code position_embedding_size} positions for each of two axes; per layer q, k, v and
     * output projections of {@code num_attention_heads} (and {@code num_key_value_heads}) heads of {@code head_dim} and a
     * gated MLP, none with bias; norms left out. Keys left out are {@code Gemma4VisionConfig}'s defaults
     * (huggingface/transformers@008e5743). Gemma 4 31B's: 0.576e9 (its card: "~550M" for the encoder).
     */
    private static double gemma4Vision(JsonNode v, double textHidden, String name) {
        double h = v.path("hidden_size").asDouble(768);
        double i = v.path("intermediate_size").asDouble(3072);
        double layers = v.path("num_hidden_layers").asDouble(16);
        double heads = v.path("num_attention_heads").asDouble(12);
        double kvHeads = v.path("num_key_value_heads").asDouble(12);
        double headDim = v.path("head_dim").asDouble(64);
        double patch = v.path("patch_size").asDouble(16);
        double positions = v.path("position_embedding_size").asDouble(10240);
        requireDimensions(v, name, h, i, layers, heads, kvHeads, headDim, patch, positions);
        double layer = 2 * h * heads * headDim + 2 * h * kvHeads * headDim + 3 * h * i;
        return 3 * patch * patch * h + 2 * positions * h + layers * layer + h * textHidden;
    }

    /**
     * Qwen3.5's tower, Qwen3-VL's (transformers' {@code modeling_qwen3_vl.py}): a patch embedding over
     * {@code temporal_patch_size} frames, {@code num_position_embeddings} position embeddings, and a patch merger that
     * joins {@code spatial_merge_size}^2 patches (a layer norm, a square MLP of that width, a projection to
     * {@code out_hidden_size}); each of {@code deepstack_visual_indexes} adds a merger of its own, its norm over the
     * merged width. Every key is read from the config. Qwen3.5-35B-A3B's: 0.447e9.
     */
    private static double qwen35Vision(JsonNode v, String name) {
        double h = v.path("hidden_size").asDouble(0);
        double merged = h * Math.pow(v.path("spatial_merge_size").asDouble(0), 2);
        double out = v.path("out_hidden_size").asDouble(0);
        requireDimensions(v, name, merged, out);
        double patch = v.path("patch_size").asDouble(0);
        double encoder = visionEncoder(v, name, h, v.path("intermediate_size").asDouble(0), v.path("depth").asDouble(0),
                v.path("in_channels").asDouble(3) * v.path("temporal_patch_size").asDouble(0) * patch * patch,
                v.path("num_position_embeddings").asDouble(0));
        double merger = merged * merged + merged + merged * out + out;
        return encoder + merger + 2 * h + v.path("deepstack_visual_indexes").size() * (merger + 2 * merged);
    }

    /**
     * A vision transformer's encoder: a patch embedding of {@code patchInputs} values a patch (with bias), a position
     * embedding each, and per layer four attention projections and a two-matrix MLP, biases throughout, and two layer
     * norms.
     */
    private static double visionEncoder(JsonNode v, String name, double h, double i, double layers, double patchInputs,
                                        double positions) {
        requireDimensions(v, name, h, i, layers, patchInputs, positions);
        double layer = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h;
        return patchInputs * h + h + positions * h + layers * layer;
    }

    /** Throws {@link #badVision} unless every one of a tower's dimensions is at least 1 (NaN is not). */
    private static void requireDimensions(JsonNode v, String name, double... dimensions) {
        for (double d : dimensions) {
            if (!(d >= 1)) {
                throw badVision(v, name);
            }
        }
    }

    private static IllegalArgumentException badVision(JsonNode v, String name) {
        return new IllegalArgumentException("config.json of " + name + ": \"vision_config\" " + v + " is not a vision"
                + " tower's shape; expected whole numbers >= 1 for its width, MLP, layers, patches and positions (SigLIP's"
                + " hidden_size, intermediate_size, num_hidden_layers, patch_size, image_size; Pixtral's the same but"
                + " image_size; Qwen3-VL's hidden_size,"
                + " intermediate_size, depth, patch_size, temporal_patch_size, num_position_embeddings,"
                + " spatial_merge_size, out_hidden_size; Qwen2.5-VL's the same but num_position_embeddings; Gemma 4's"
                + " hidden_size, intermediate_size, num_hidden_layers, num_attention_heads, head_dim, patch_size,"
                + " position_embedding_size)");
    }

    private static final String FULL = "full_attention";
    private static final String SLIDING = "sliding_attention";
    private static final String CHUNKED = "chunked_attention";
    private static final String LINEAR = "linear_attention";
    private static final String MXFP4 = "mxfp4";
    private static final String COMPRESSED_TENSORS = "compressed-tensors";
    /**
     * Bytes per MXFP4 weight: blocks of 32 FP4 (E2M1) values sharing one 8-bit (E8M0) scale, 4.25 bits a weight (OCP
     * Microscaling Formats (MX) Specification v1.0, MXFP4).
     */
    static final double MXFP4_BYTES_PER_PARAMETER = (32 * 4 + 8) / 32.0 / 8;

    /**
     * Each layer's attention: {@code layer_types} when given ({@code "full_attention"}, {@code "sliding_attention"},
     * {@code "linear_attention"}), else for a sliding window in the architecture's own pattern every
     * {@code slidingPattern}-th layer full and the others sliding
     * ({@link ModelArchitecture#slidingPattern}) or every layer sliding ({@link ModelArchitecture#windowsEveryLayer}),
     * else linear-attention (Gated DeltaNet) for every layer but each {@code full_attention_interval}-th; full attention
     * for a model with none of these.
     */
    private static String[] layerTypes(JsonNode c, String name, int layers, ModelArchitecture architecture) {
        int slidingPattern = architecture.slidingPattern(c);
        String[] types = new String[layers];
        java.util.Arrays.fill(types, FULL);
        JsonNode given = c.get("layer_types");
        if (given != null && !given.isNull()) {
            if (!given.isArray() || given.size() != layers) {
                throw new IllegalArgumentException("config.json of " + name + ": \"layer_types\" must list one type per"
                        + " layer (" + layers + "), got " + given);
            }
            for (int i = 0; i < layers; i++) {
                String type = given.get(i).asText();
                if (!type.equals(LINEAR) && !type.equals(FULL) && !type.equals(SLIDING) && !type.equals(CHUNKED)) {
                    throw new IllegalArgumentException("config.json of " + name + ": layer_types[" + i + "] is \"" + type
                            + "\"; expected \"full_attention\", \"sliding_attention\", \"chunked_attention\" or"
                            + " \"linear_attention\"");
                }
                types[i] = type;
            }
            if (java.util.Arrays.stream(types).allMatch(LINEAR::equals)) {
                throw new IllegalArgumentException("config.json of " + name + ": no layer of \"layer_types\" is"
                        + " full_attention or sliding_attention; a model whose every layer is linear is not modelled by the"
                        + " simulated engine; it would give this model another model's figures, so it is refused");
            }
        } else if (slidingPattern > 0 && c.path("sliding_window").isNumber()) {
            for (int i = 0; i < layers; i++) {
                types[i] = (i + 1) % slidingPattern != 0 ? SLIDING : FULL;
            }
        } else if (architecture.windowsEveryLayer() && c.path("sliding_window").isNumber()) {
            java.util.Arrays.fill(types, SLIDING);
        } else if (c.has("full_attention_interval")) {
            int interval = (int) count(c, name, "full_attention_interval");
            for (int i = 0; i < layers; i++) {
                types[i] = (i + 1) % interval != 0 ? LINEAR : FULL;
            }
        }
        return types;
    }

    /**
     * The layers of {@code layers} that run an indexer of their own under DeepSeek Sparse Attention, each with its
     * weights, its key cache and its products; the others reuse the top-k an earlier layer chose in the same step and
     * hold none of the three. vLLM's DeepSeek V2 model code (vllm-project/vllm@002d6073 {@code
     * vllm/model_executor/models/deepseek_v2.py}) builds a layer's {@code Indexer}, whose {@code __init__} allocates its
     * {@code DeepseekV32IndexerCache}, only where {@code skip_topk} is false, which holds where {@code max(layer_id -
     * index_skip_topk_offset + 1, 0) % index_topk_freq == 0} ({@code index_topk_freq} 1 and the offset 2 unless the
     * config states them: every layer of DeepSeek V3.2 and GLM-5). Earlier releases built an indexer on every layer and
     * skipped its work only under {@code --hf-overrides '{"use_index_cache": true}'}; that rule is not modelled. An
     * {@code index_topk_pattern} is refused by name.
     */
    private static int indexerLayers(JsonNode c, String name, int layers) {
        if (c.hasNonNull("index_topk_pattern")) {
            throw new IllegalArgumentException("config.json of " + name + ": \"index_topk_pattern\" is not modelled by"
                    + " the simulated engine (it reads which layers choose their own top-k from index_topk_freq and"
                    + " index_skip_topk_offset); it would give this model another model's figures, so it is refused");
        }
        int frequency = c.has("index_topk_freq") ? (int) count(c, name, "index_topk_freq") : 1;
        int offset = c.has("index_skip_topk_offset") ? countOrNone(c, name, "index_skip_topk_offset") : 2;
        int own = 0;
        for (int layer = 0; layer < layers; layer++) {
            own += Math.max(layer - offset + 1, 0) % frequency == 0 ? 1 : 0;
        }
        return own;
    }

    /**
     * The native multi-token-prediction layers a text config ships ({@link ModelArchitecture#textConfig}): Qwen's
     * {@code mtp_num_hidden_layers}, DeepSeek's {@code num_nextn_predict_layers}; 0 for none.
     */
    static int mtpLayers(JsonNode c, String name) {
        return countOrNone(c, name, c.has("mtp_num_hidden_layers") ? "mtp_num_hidden_layers" : "num_nextn_predict_layers");
    }

    /**
     * A count the config may state as 0 for none, or leave out: Kimi K2's {@code "num_nextn_predict_layers": 0} (its
     * checkpoint ships no MTP layer).
     */
    private static int countOrNone(JsonNode c, String name, String field) {
        JsonNode v = c.get(field);
        if (v != null && (!v.canConvertToInt() || v.asInt() < 0)) {
            throw new IllegalArgumentException("config.json of " + name + ": \"" + field + "\" must be a whole number"
                    + " >= 0, got " + v);
        }
        return v == null ? 0 : v.asInt();
    }

    private static double count(JsonNode c, String name, String field) {
        JsonNode v = c.get(field);
        if (v == null || !v.canConvertToLong() || v.asLong() < 1) {
            throw new IllegalArgumentException("config.json of " + name + ": \"" + field + "\" must be a whole number"
                    + " >= 1, got " + (v == null ? "nothing" : v.toString()));
        }
        return v.asLong();
    }

    /**
     * Refuses, by name, a config whose keys change the physics in a way this profile does not model, rather than read
     * it as a model it is not: a low-rank query without latent attention, DeepSeek's dense-first layers without its
     * routed experts, sliding-window attention in use on layers the config does not list ({@code sliding_window} without
     * {@code layer_types} or {@code "use_sliding_window": false}, which Qwen's configs carry, in an architecture without a
     * rule of its own for them: {@link ModelArchitecture#slidingPattern}, {@link ModelArchitecture#windowsEveryLayer}),
     * MXFP4 beyond the experts,
     * and weights quantised by any method but FP8, MXFP4, compressed-tensors' FP8, integer and NVFP4 schemes, ModelOpt's
     * FP8 and NVFP4 and the AWQ and GPTQ Marlin runs (bitsandbytes, 3-bit GPTQ; {@link CompressedTensors}, {@link
     * ModelOpt}, {@link GroupQuantised}).
     */
    private static void unmodelled(JsonNode root, JsonNode c, String name, ModelArchitecture architecture) {
        String why = null;
        if (c.hasNonNull("q_lora_rank") && !c.hasNonNull("kv_lora_rank")) {
            why = "\"q_lora_rank\" without \"kv_lora_rank\": a low-rank query without latent attention";
        } else if (c.has("first_k_dense_replace") && !c.has("n_routed_experts")) {
            why = "\"first_k_dense_replace\" without \"n_routed_experts\": sparse layers of no known experts";
        } else if (c.path("sliding_window").isNumber() && c.path("use_sliding_window").asBoolean(true)
                && !c.path("layer_types").isArray() && architecture.slidingPattern(c) == 0
                && !architecture.windowsEveryLayer()) {
            why = "\"sliding_window\" " + c.get("sliding_window").asText() + " without \"layer_types\": sliding-window"
                    + " attention on layers the config does not name (Qwen2's max_window_layers rule; Mixtral's and"
                    + " Mistral 3's every layer, whose SGLang code was not read)";
        }
        String quant = root.path("quantization_config").path("quant_method").asText("");
        if (why == null && GroupQuantised.names(quant)) {
            why = GroupQuantised.whyNotModelled(root.path("quantization_config"));
            why = why == null ? null : "\"quantization_config\": " + why;
        } else if (why == null && quant.startsWith(ModelOpt.METHOD)) {
            why = ModelOpt.whyNotModelled(root.path("quantization_config"));
            why = why == null ? null : "\"quantization_config\": " + why;
        } else if (why == null && !quant.isEmpty() && !quant.equals("fp8") && !quant.equals(MXFP4)
                && !quant.equals(COMPRESSED_TENSORS)) {
            why = "\"quantization_config\": weights quantised as " + quant;
        }
        if (why == null && quant.equals("fp8") && root.path("quantization_config").has("weight_block_size")
                && !root.path("quantization_config").path("weight_block_size").equals(FP8_BLOCKS)) {
            why = "\"quantization_config\": FP8 in blocks of " + root.path("quantization_config").path("weight_block_size")
                    + " (modelled: [128,128], DeepSeek's, Qwen's and GLM-5's, whose products were measured)";
        }
        if (why == null && quant.equals(MXFP4) && !notConverted(root, "self_attn")) {
            why = "\"quantization_config\": MXFP4 on the attention weights too (only MXFP4 experts, with"
                    + " \"modules_to_not_convert\" naming self_attn as gpt-oss's does, are modelled)";
        }
        if (why != null) {
            throw refused(name, why);
        }
    }

    /** A config the twin does not model, refused with what in it is not modelled ({@code why}). */
    private static IllegalArgumentException refused(String name, String why) {
        return new IllegalArgumentException("config.json of " + name + ": " + why + " is not modelled by the simulated"
                + " engine; it would give this model another model's figures, so it is refused");
    }

    /** Whether {@code quantization_config.modules_to_not_convert} names a module containing {@code module}. */
    private static boolean notConverted(JsonNode root, String module) {
        for (JsonNode pattern : root.path("quantization_config").path("modules_to_not_convert")) {
            if (pattern.asText().contains(module)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Bytes a weight takes as the engines serve the checkpoint by default ({@code --dtype auto}): 2 for a bfloat16 or
     * float16 one, and 2 for a float32 one too, which vLLM casts to its platform's preferred 16-bit type and SGLang to
     * float16 (vllm-project/vllm@0052a5b8 {@code vllm/config/model.py} {@code _resolve_auto_dtype}: "Downcast for
     * float32 models"; SGLang's {@code _get_and_verify_dtype}: "we use float16 for float32 models").
     */
    private static double bytesPerParameter(JsonNode c, String name) {
        String dtype = c.path("torch_dtype").asText(c.path("dtype").asText("bfloat16")).toLowerCase(Locale.ROOT);
        return switch (dtype) {
            case "bfloat16", "float16", "float32" -> 2;
            default -> throw new IllegalArgumentException("config.json of " + name + ": \"torch_dtype\" " + dtype
                    + " is not modelled; expected bfloat16, float16 or float32");
        };
    }

    /**
     * This model with its MXFP4 experts as {@code kernel} holds them ({@link Mxfp4Kernel}), each expert's intermediate
     * size split {@code slices} ways by tensor parallelism (vLLM pads each GPU's share:
     * {@code intermediate_size_per_partition}); the same model where the experts are not MXFP4. An expert's intermediate
     * size is its parameters over three hidden-size rows.
     */
    ModelProfile withExpertsHeldBy(Mxfp4Kernel kernel, int slices) {
        // integer experts of four bits in groups of 64 take MXFP4's bytes too: only MXFP4 is laid out anew
        if (experts.count() == 0 || lowBitWeights != LowBitWeights.NONE || expertBytesPerParameter != MXFP4_BYTES_PER_PARAMETER) {
            return this;
        }
        int intermediate = (int) Math.round(experts.parameters() / (3.0 * hiddenSize) / slices);
        return new ModelProfile(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken,
                stateBytesPerSequence, nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts,
                window, kernel.bytesPerParameter(hiddenSize, intermediate), kvSplit, attentionHeads, attentionFlopsPerPair,
                embeddings, activationTraffic, lowBitWeights);
    }

    /**
     * This model as SGLang serves it ({@link SglangWindow}): its sliding-window layers kept for every token in the one
     * pool, or attending to the whole context as its other layers do, where the architecture's SGLang code has them so.
     *
     * @param hybridSwaMemory whether SGLang may pool sliding layers apart: not with {@code --disable-hybrid-swa-memory}
     *                        ({@code is_hybrid_swa = is_hybrid_swa_model(...) and not disable_hybrid_swa_memory}, {@code
     *                        model_config.py}), which keeps them in the one pool
     */
    ModelProfile servedBySglang(boolean hybridSwaMemory) {
        return switch (window.sglang()) {
            case OWN_POOL -> hybridSwaMemory ? this : withWindowKeepingEveryToken();
            case ONE_POOL -> withWindowKeepingEveryToken();
            case IGNORED -> new ModelProfile(name, parameters, activeParameters, bytesPerParameter,
                    kvBytesPerToken + window.kvBytesPerToken(), stateBytesPerSequence, nonLanguageBytes, context,
                    draftFraction, hiddenSize, layers, experts, Window.NONE, expertBytesPerParameter, kvSplit,
                    attentionHeads, attentionFlopsPerPair + window.flopsPerPair(), embeddings, activationTraffic, lowBitWeights);
        };
    }

    /**
     * This model with its sliding-window layers' KV kept for every token, as an engine whose cache holds them in the one
     * pool of the full layers does: their reads stay the window's.
     */
    ModelProfile withWindowKeepingEveryToken() {
        return new ModelProfile(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken,
                stateBytesPerSequence, nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts,
                window.keepingEveryToken(),
                expertBytesPerParameter, kvSplit, attentionHeads, attentionFlopsPerPair, embeddings, activationTraffic, lowBitWeights);
    }

    /**
     * This model as vLLM runs its sparse attention ({@link Reach#TOP_K}) on {@code tensorParallel} GPUs like {@code gpu};
     * the same model without it. The twin models FlashMLA's sparse kernels, which run on compute capability 9.x and 10.x
     * only ({@code FlashMLASparseBackend.supports_compute_capability}: {@code capability.major in [9, 10]}). With a
     * 16-bit cache every token goes through its prefill kernel, whose query heads per GPU are padded to a multiple of 64
     * on Hopper and 128 on Blackwell ({@code FlashMLASparseImpl._forward_bf16_kv}: "kernel requires num_local_head to be
     * a multiple of 64 on hopper and 128 on blackwell"; {@code vllm/v1/attention/backends/mla/flashmla_sparse.py}): on 8
     * GPUs DeepSeek V3.2's 16 heads a GPU compute as 64, four times the products.
     *
     * @throws IllegalArgumentException on another GPU
     */
    ModelProfile sparseAttentionServedByVllm(int tensorParallel, GpuProfile gpu) {
        if (window.reach() != Reach.TOP_K) {
            return this;
        }
        int major = gpu.computeCapability() / 10;
        if (major != 9 && major != 10) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "vLLM's sparse attention of %s on %s (compute"
                    + " capability %d.%d) is not modelled by the simulated engine: it models FlashMLA's sparse kernels,"
                    + " which run on compute capability 9.x and 10.x only (FlashMLASparseBackend); expected a Hopper or"
                    + " Blackwell GPU (h100, h200, h20, b200)", name, gpu.name(), major, gpu.computeCapability() % 10));
        }
        int local = Math.max(1, attentionHeads / tensorParallel);
        int padding = major == 10 ? 128 : 64;
        double padded = Math.ceil((double) local / padding) * padding;
        return new ModelProfile(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken,
                stateBytesPerSequence, nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts,
                new Window(window.tokens(), window.kvBytesPerToken(), window.flopsPerPair() * padded / local,
                        window.sglang(), window.keepsEveryToken(), window.reach()),
                expertBytesPerParameter, kvSplit, attentionHeads, attentionFlopsPerPair, embeddings, activationTraffic,
                lowBitWeights);
    }

    /**
     * This model as vLLM serves it with {@code --disable-hybrid-kv-cache-manager}: where full and sliding layers both
     * are, the sliding ones' cache is made full attention's, every token kept, while their kernels still read the window
     * ("The compute of layers like sliding window is still saved."); a model whose every layer slides keeps its one
     * kind of cache as it is. {@code unify_hybrid_kv_cache_specs}, {@code vllm/v1/core/kv_cache_utils.py}, v0.17.1 and
     * v0.26.0.
     *
     * @throws IllegalArgumentException for a model with linear-attention layers, whose state vLLM cannot make a KV
     *                                  cache of, and so does not start
     */
    ModelProfile withoutVllmHybridKvCacheManager() {
        if (stateBytesPerSequence > 0) {
            throw new IllegalArgumentException("the engine would not start: with --disable-hybrid-kv-cache-manager vLLM"
                    + " cannot hold " + name + "'s linear-attention states beside its KV cache (\"Hybrid KV cache manager"
                    + " is disabled but failed to convert the KV cache specs to one unified type.\"); expected the flag"
                    + " left out for a model with linear-attention layers");
        }
        return window.tokens() == 0 || kvBytesPerToken == 0 ? this : withWindowKeepingEveryToken();
    }

    /**
     * This model with FP8 weights (one byte each: a checkpoint quantized to FP8, or {@code --quantization fp8}) with a
     * scale per tensor or channel; its KV cache and its vocabulary's tables ({@link #TABLE_BYTES}) keep their own
     * precision.
     */
    public ModelProfile withFp8Weights() {
        return withFp8Weights(LowBitWeights.NONE);
    }

    /**
     * As {@link #withFp8Weights()}, the weights scaled per block of 128 x 128 ({@link LowBitWeights#FP8_BLOCK}) or, for
     * {@link LowBitWeights#NONE}, per tensor or channel.
     */
    ModelProfile withFp8Weights(LowBitWeights scales) {
        return new ModelProfile(name, parameters, activeParameters, 1, kvBytesPerToken, stateBytesPerSequence,
                nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts, window,
                Math.min(1, expertBytesPerParameter), kvSplit, attentionHeads, attentionFlopsPerPair, embeddings,
                activationTraffic, scales);
    }

    /**
     * This model with every layer's weights of under 16 bits multiplied as {@code kind} says: integers in 16 bits (AWQ,
     * GPTQ: {@link GroupQuantised}; compressed-tensors' W4A16 and W8A16: {@link CompressedTensors}) or NVFP4 ({@link
     * Nvfp4}), {@code bytes} a weight with its groups' scales (and zero points), the experts' too; its KV cache and its
     * vocabulary's tables ({@link #TABLE_BYTES}) keep their own precision.
     */
    ModelProfile withLowBitWeights(LowBitWeights kind, double bytes) {
        return new ModelProfile(name, parameters, activeParameters, bytes, kvBytesPerToken, stateBytesPerSequence,
                nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts, window, bytes, kvSplit,
                attentionHeads, attentionFlopsPerPair, embeddings, activationTraffic, kind);
    }

    /**
     * This model with its routed experts alone of under 16 bits, multiplied as {@code kind} says, {@code bytes} a weight
     * with its groups' scales (and zero points), beside 16-bit attention, dense layers and shared experts: Kimi K2
     * Thinking's integer experts ({@link CompressedTensors}), NVFP4 experts ({@link Nvfp4}).
     */
    ModelProfile withLowBitExperts(LowBitWeights kind, double bytes) {
        return new ModelProfile(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken,
                stateBytesPerSequence, nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts, window,
                bytes, kvSplit, attentionHeads, attentionFlopsPerPair, embeddings, activationTraffic, kind);
    }

    /**
     * This model with an FP8 KV cache ({@code --kv-cache-dtype fp8}): half the bytes per token of a 16-bit cache. The
     * linear-attention state keeps its fp32.
     */
    public ModelProfile withFp8KvCache() {
        if (window.reach() == Reach.TOP_K) {
            throw new IllegalArgumentException("an FP8 KV cache of " + name + "'s sparse attention is not modelled by the"
                    + " simulated engine (vLLM stores it as fp8_ds_mla, 656 bytes a token a layer, beside the indexer's"
                    + " FP8 keys); expected --kv-cache-dtype left auto, which keeps the latent cache in 16 bits");
        }
        return new ModelProfile(name, parameters, activeParameters, bytesPerParameter, kvBytesPerToken / 2,
                stateBytesPerSequence, nonLanguageBytes, context, draftFraction, hiddenSize, layers, experts,
                new Window(window.tokens(), window.kvBytesPerToken() / 2, window.flopsPerPair(), window.sglang(),
                        window.keepsEveryToken(), window.reach()), expertBytesPerParameter,
                kvSplit, attentionHeads, attentionFlopsPerPair, embeddings, activationTraffic, lowBitWeights);
    }

    /** Whether the weights are FP8 (one byte), so the matrix products run on FP8 tensor cores where the GPU has them. */
    public boolean fp8Weights() {
        return bytesPerParameter == 1 && lowBitWeights.asTheirBytesSay();
    }

    /** Whether the weights are FP8 with a scale per 128 x 128 block ({@link LowBitWeights#FP8_BLOCK}). */
    public boolean blockScaledFp8() {
        return bytesPerParameter == 1 && lowBitWeights == LowBitWeights.FP8_BLOCK;
    }

    /**
     * Whether the layers' products (attention's projections, dense MLPs, shared experts) hold NVFP4 weights ({@link
     * LowBitWeights#NVFP4}), rather than the routed experts alone.
     */
    boolean nvfp4Layers() {
        return lowBitWeights == LowBitWeights.NVFP4 && bytesPerParameter < 1;
    }

    /** Whether the routed experts hold NVFP4 weights ({@link LowBitWeights#NVFP4}). */
    boolean nvfp4Experts() {
        return lowBitWeights == LowBitWeights.NVFP4 && experts.count() > 0;
    }

    /**
     * Whether the routed experts are held in four bits (MXFP4, NVFP4, 4-bit integers), which the engines run with
     * kernels of their own (Marlin, OpenAI's {@code triton_kernels}, FlashInfer's) rather than the fused
     * mixture-of-experts kernel of 8- and 16-bit experts.
     */
    boolean fourBitExperts() {
        return experts.count() > 0 && expertBytesPerParameter < 1;
    }

    /** Bytes of the language-model weights: the layers' at their precision, the vocabulary's tables in 16 bits. */
    public double weightBytes() {
        double routed = experts.stored();
        double tables = embeddings.inModel();
        return (parameters - routed - tables) * bytesPerParameter + routed * expertBytesPerParameter
                + tables * TABLE_BYTES;
    }

    /**
     * How many copies of the KV cache {@code tensorParallel} ranks keep: as many as ranks for latent attention; for
     * grouped-query attention one while there are no more ranks than KV heads, and beyond that each rank keeps one
     * head whole, so the heads are copied {@code tp / num_kv_heads} times. Both engines give each rank {@code max(1,
     * num_kv_heads / tp)} heads: vLLM's {@code ModelConfig.get_num_kv_heads} ("We will replicate the KV heads in the case
     * where the number of KV heads is smaller than the tensor parallel size so each GPU has at least one KV head") and
     * SGLang's {@code ModelConfig.get_num_kv_heads(tensor_parallel_size)}, in the same words. Qwen3-235B-A22B's 4 KV
     * heads at TP 8: two copies, each GPU holding a quarter of a token's KV where an even split would hold an eighth.
     */
    public int kvCopies(int tensorParallel) {
        return Math.max(1, tensorParallel / kvSplit);
    }

    /**
     * Why the engines would not start this model over {@code tensorParallel} ranks, if they would not: each rank takes
     * a whole number of query heads, and of KV heads or of copies of one. vLLM checks the first before it loads
     * anything ("Total number of attention heads (32) must be divisible by tensor parallel size (3).",
     * {@code ModelConfig.verify_with_parallel_config}, {@code vllm/config/model.py}, v0.26.0); both engines' attention
     * layers assert both ({@code total_num_heads % tp_size == 0}, then {@code total_num_kv_heads % tp_size == 0}, or
     * {@code tp_size % total_num_kv_heads == 0} where there are fewer KV heads than ranks: vLLM's
     * {@code models/llama.py} and {@code models/qwen3.py}, SGLang's {@code models/qwen3.py}). Latent attention's one
     * compressed head ({@link #kvSplit} 1) goes whole to every rank.
     */
    public Optional<String> tensorParallelRefused(int tensorParallel) {
        if (attentionHeads == 0 || splits(tensorParallel)) {
            return Optional.empty();
        }
        String sizes = java.util.stream.IntStream.rangeClosed(1, attentionHeads).filter(this::splits)
                .mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(", "));
        return Optional.of((attentionHeads % tensorParallel != 0
                ? String.format(Locale.ROOT, "%s's %d attention heads do not divide among %d tensor-parallel ranks"
                        + " (vLLM refuses it at start, SGLang's attention asserts it)", name, attentionHeads,
                        tensorParallel)
                : String.format(Locale.ROOT, "%s's %d KV heads neither divide among %d tensor-parallel ranks nor"
                        + " divide them (both engines' attention asserts it)", name, kvSplit, tensorParallel))
                + "; expected a size that splits its heads evenly: " + sizes);
    }

    /**
     * Why a checkpoint of FP8 weights scaled per 128 x 128 block ({@link #blockScaledFp8}) does not start when each of
     * a routed expert's {@code tensorParallel / expertParallel} slices is not a whole number of blocks wide: vLLM's
     * and SGLang's FP8 mixture-of-experts methods check it as they create the weights, "The output_size of gate's and
     * up's weight = 192 is not divisible by weight quantization block_n = 128." (as users quote it from vLLM 0.19.0 and
     * 0.25.0 with MiniMax-M2.5 and M2.7 at tensor parallelism 8, and from SGLang with Qwen3-235B-A22B-FP8 at 8: 1,536 /
     * 8 = 192); expert parallelism, keeping experts whole, is their fix. Empty where the slices are whole blocks, or the
     * experts are not block-scaled FP8. (The dense layers' own check, vLLM's {@code validate_fp8_block_shape}, is not
     * made: the twin keeps no dense layer's widths.)
     *
     * @param expertParallel the groups the routed experts are dealt among whole ({@link SimParams#expertParallelSize})
     */
    public Optional<String> blockScaledExpertsRefused(int tensorParallel, int expertParallel) {
        if (!blockScaledFp8() || experts.count() == 0 || hiddenSize == 0) {
            return Optional.empty();
        }
        long intermediate = Math.round(experts.parameters() / (3.0 * hiddenSize));
        int slices = tensorParallel / expertParallel;
        if (intermediate % ((long) slices * FP8_BLOCK) == 0) {
            return Optional.empty();
        }
        String sizes = java.util.stream.IntStream.rangeClosed(1, 16)
                .filter(t -> intermediate % ((long) t * FP8_BLOCK) == 0)
                .mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(", "));
        return Optional.of(String.format(Locale.ROOT, "%s's routed experts are %,d wide, %s on each of %d slices, not a"
                + " whole number of its FP8 checkpoint's %d-wide blocks (vLLM and SGLang: \"The output_size of gate's and"
                + " up's weight = %s is not divisible by weight quantization block_n = %d.\"); expected a"
                + " tensor-parallel size that leaves whole blocks (%s), or expert parallelism (vLLM's"
                + " --enable-expert-parallel, SGLang's --ep-size)", name, intermediate, trimmed(intermediate, slices),
                slices, FP8_BLOCK, trimmed(intermediate, slices), FP8_BLOCK, sizes));
    }

    /** {@code whole / parts}, written as the engines print it: a whole number where it is one. */
    private static String trimmed(long whole, int parts) {
        return whole % parts == 0 ? Long.toString(whole / parts)
                : String.format(Locale.ROOT, "%.1f", (double) whole / parts);
    }

    /** Whether {@code tensorParallel} ranks each take whole query heads, and whole KV heads or copies of one. */
    private boolean splits(int tensorParallel) {
        if (attentionHeads % tensorParallel != 0) {
            return false;
        }
        return kvSplit == Integer.MAX_VALUE || (kvSplit >= tensorParallel ? kvSplit % tensorParallel == 0
                : tensorParallel % kvSplit == 0);
    }

    /**
     * KV-cache bytes a sequence of {@code tokens} tokens of context holds: every token's in the layers that attend to
     * the whole context, at most the window's in the sliding-window layers, unless the engine keeps them all ({@link
     * Window#keepsEveryToken}). What a step reads of them is {@link StepCostModel}'s.
     */
    public double kvBytes(long tokens) {
        return kvBytesPerToken * tokens + window.heldBytes(tokens);
    }

    /** Parameters of the routed experts one token runs through: sparse layers x experts per token x each expert's. */
    public double routedActiveParameters() {
        return (double) experts.layers() * experts.perToken() * experts.parameters();
    }

    /**
     * Bytes of weights one forward step of {@code tokens} tokens reads: every dense weight (the output projection among
     * them, but not an input embedding of its own: {@link #denseWeightBytesRead}), and of each sparse layer's
     * routed experts only those the tokens are routed to ({@link Experts#touched}); all of them for a dense model. A
     * mixture of experts at low load so reads a fraction of its weights (Qwen3-30B-A3B: 8 of 128 experts per layer for
     * one token), and all of them once its batch is a few hundred tokens.
     */
    public double weightBytesRead(long tokens) {
        if (experts.layers() == 0) {
            return denseWeightBytesRead();
        }
        return denseWeightBytesRead()
                + experts.layers() * experts.parameters() * experts.touched(Math.max(1, tokens)) * expertBytesPerParameter;
    }

    /**
     * Bytes of the weights every step reads whatever its tokens: all but the routed experts and an input embedding that
     * is not also the output projection, of which a step looks up its tokens' rows only.
     */
    public double denseWeightBytesRead() {
        return layerWeightBytes() + tableBytesRead();
    }

    /** Bytes of the layers' weights but the routed experts: every step's products read them whole. */
    double layerWeightBytes() {
        return (parameters - experts.stored() - embeddings.inModel()) * bytesPerParameter;
    }

    /** Bytes a step reads of the vocabulary's tables ({@link #TABLE_BYTES} a weight): the output projection's. */
    double tableBytesRead() {
        return (embeddings.inModel() - embeddings.lookedUp()) * TABLE_BYTES;
    }

    /**
     * Parameters each token a step computes is multiplied through: the active ones less the vocabulary's tables (the
     * input embedding is looked up, the output projection multiplies the sampled positions only: {@link Embeddings}).
     */
    public double perTokenParameters() {
        return activeParameters - embeddings.inModel();
    }

    /**
     * As {@link #weightBytesRead(long)}, with the routed experts dealt whole to {@code expertGroups} groups of the GPUs
     * (expert parallelism): the bytes all the GPUs would read together if each read as much as the busiest group's
     * share ({@link Experts#busiestGroupTouched}), since a step lasts until its slowest GPU is done; {@link
     * #weightBytesRead(long)} for one group or a dense model.
     */
    public double weightBytesRead(long tokens, int expertGroups) {
        if (experts.layers() == 0 || expertGroups <= 1) {
            return weightBytesRead(tokens);
        }
        long t = Math.max(1, tokens);
        double routed = experts.layers() * experts.parameters() * expertBytesPerParameter;
        return weightBytesRead(t) + routed * (expertGroups * experts.busiestGroupTouched(t, expertGroups) - experts.touched(t));
    }

    /**
     * Of {@link #weightBytesRead(long, int)}, the routed experts' bytes alone, which the fused mixture-of-experts kernel
     * reads ({@code StepCostModel}); 0 for a dense model.
     */
    double expertBytesRead(long tokens, int expertGroups) {
        if (experts.layers() == 0) {
            return 0;
        }
        long t = Math.max(1, tokens);
        double routed = experts.layers() * experts.parameters() * expertBytesPerParameter;
        return routed * (expertGroups <= 1 ? experts.touched(t) : expertGroups * experts.busiestGroupTouched(t, expertGroups));
    }

    private static void requirePositive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be a finite number > 0, got " + v);
        }
    }
}
