package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code compressed-tensors} checkpoints (llm-compressor's, as RedHatAI and Moonshot publish them) that the
 * simulated engine reads, with one config group on {@code ["Linear"]}:
 * <ul>
 *     <li>FP8 weights and FP8 activations on every linear layer, which vLLM runs as it runs any FP8 checkpoint
 *     ({@code CompressedTensorsW8A8Fp8} where the GPU has FP8 tensor cores, FP8 weights widened in Marlin where it has
 *     not). The preset that writes them is compressed-tensors' {@code FP8_DYNAMIC} (weights 8-bit float per channel,
 *     static; activations 8-bit float per token, dynamic; vllm-project/compressed-tensors {@code quant_scheme.py}), its
 *     {@code FP8} (per tensor, static) and {@code FP8_BLOCK}; vLLM reads a group as FP8 W8A8 when its weights and its
 *     input activations are 8-bit floats, the weights symmetric, static and per tensor, channel or block, the
 *     activations dynamic or per tensor ({@code _is_fp8_w8a8}).</li>
 *     <li>Integer weights beside 16-bit activations ({@code W4A16}, {@code W8A16}: RedHatAI's {@code quantized.w4a16},
 *     Kimi K2 Thinking's experts), on every linear layer or on the routed experts alone: vLLM's {@code
 *     CompressedTensorsWNA16} takes a group whose weights are static, per group or per channel, without input
 *     activations ({@code _is_wNa16_group_channel}) in the {@code pack-quantized} format, of 4 or 8 bits, symmetric or
 *     with zero points ({@code WNA16_SUPPORTED_BITS}, {@code WNA16_ZP_SUPPORTED_TYPES_MAP}), and multiplies them in 16
 *     bits with Marlin's kernels, as SGLang's class of that name does ({@code
 *     vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py} and {@code
 *     schemes/compressed_tensors_wNa16.py}, vllm-project/vllm@be696453 and @519b90d4; {@code
 *     python/sglang/srt/layers/quantization/compressed_tensors/schemes/compressed_tensors_wNa16.py}). Groups of 32, 64
 *     or 128 or one per output channel: Marlin's ({@code MARLIN_SUPPORTED_GROUP_SIZES}).</li>
 *     <li>NVFP4 weights and activations ({@code nvfp4-pack-quantized}: RedHatAI's {@code -NVFP4} models,
 *     llm-compressor's {@code NVFP4} preset), on every linear layer or on the routed experts alone, which vLLM runs
 *     with {@code CompressedTensorsW4A4Fp4} ({@link LowBitWeights#NVFP4}).</li>
 * </ul>
 * What the {@code ignore} list leaves in 16 bits is found as vLLM finds it ({@code should_ignore_layer}): an entry
 * {@code re:PATTERN} matches a module whose name the pattern matches from its start ({@code re.match}), any other
 * entry a module of exactly that name. SGLang's copy matches such an entry anywhere within a name, whatever its case
 * ({@code check_contains}, {@code python/sglang/srt/layers/quantization/compressed_tensors/utils.py}): an entry the
 * two engines would read apart is refused. The twin matches it against the module names of each part of the model ({@link
 * #parts}): the attention, the dense MLP, the shared experts, the routed experts. Anything else (integer weights with
 * integer activations, 4-bit floats but NVFP4 W4A4, FP8 weights beside 16-bit activations, several groups, a part left
 * partly in 16 bits, FP8 on some parts only, 4-bit weights on some parts but the routed experts alone, an entry naming
 * no part but the
 * output head, the embeddings or the routers) is refused by name: read as it is not, it would be another model.
 */
final class CompressedTensors {

    private static final JsonNode LINEAR = JsonNodeFactory.instance.arrayNode().add("Linear");
    private static final List<Integer> MARLIN_GROUP_SIZES = List.of(32, 64, 128);

    private CompressedTensors() {
    }

    /**
     * A part of the model an {@code ignore} list may leave in 16 bits.
     *
     * @param what      the part, in words ("the attention")
     * @param modules   names of its modules in the checkpoint, one layer's, as vLLM's model file names them
     * @param vision    a vision tower, which the twin counts in 16 bits whatever the scheme: it must be left out
     */
    record Part(String what, List<String> modules, boolean vision) {
        Part {
            modules = List.copyOf(modules);
        }
    }

    /**
     * What a checkpoint's quantisation does to the model (a compressed-tensors group, or ModelOpt's NVFP4: {@link
     * ModelOpt}).
     *
     * @param weights           how its weights multiply: {@link LowBitWeights#NONE} for FP8 weights and activations on
     *                          every linear layer, {@link LowBitWeights#INTEGER}, {@link LowBitWeights#NVFP4}
     * @param bytesPerParameter bytes a quantised weight takes: 1 for FP8; for integers their bits and each group's
     *                          16-bit scale and, unless symmetric, its zero point of as many bits ({@code weight_packed},
     *                          {@code weight_scale}, {@code weight_zero_point}); 4 bits in symmetric groups of 32: 0.5625;
     *                          NVFP4's {@link LowBitWeights#NVFP4_BYTES_PER_PARAMETER}
     * @param routedExpertsOnly the routed experts alone are quantised; the rest keeps 16 bits
     */
    record Scheme(LowBitWeights weights, double bytesPerParameter, boolean routedExpertsOnly) {

        /** Whether these are FP8 weights and activations on every linear layer. */
        boolean fp8() {
            return weights.asTheirBytesSay();
        }
    }

    /**
     * The parts of a model whose checkpoint names its modules as Llama's does ({@link
     * ModelArchitecture#moduleLayers}), each with one layer's module names.
     *
     * @param layers         the prefix of the text model's layers: {@code model.layers.}, or Kimi K2.5's {@code
     *                       language_model.model.layers.}
     * @param attentionLayer the index of a full-attention layer
     * @param latent         whether its attention is multi-head latent attention, with a low-rank query if
     *                       {@code lowRankQuery}
     * @param denseLayer     the index of a layer with a dense MLP; -1 for none
     * @param sparseLayer    the index of a layer with routed experts; -1 for none
     * @param shared         the shared experts' module, {@code shared_experts} (DeepSeek's, GLM-4.5's) or {@code
     *                       shared_expert} (Qwen2-MoE's); null for none
     * @param vision         one module of the vision tower and one of its projector, as vLLM names them; empty for a text
     *                       model
     */
    static List<Part> parts(String layers, int attentionLayer, boolean latent, boolean lowRankQuery, int denseLayer,
                            int sparseLayer, String shared, List<String> vision) {
        List<Part> parts = new ArrayList<>();
        List<String> projections = latent
                ? lowRankQuery ? List.of("q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj")
                : List.of("q_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj")
                : List.of("q_proj", "k_proj", "v_proj", "o_proj");
        parts.add(new Part("the attention", named(layers + attentionLayer + ".self_attn.", projections), false));
        List<String> mlp = List.of("gate_proj", "up_proj", "down_proj");
        if (denseLayer >= 0) {
            parts.add(new Part("the dense MLP", named(layers + denseLayer + ".mlp.", mlp), false));
        }
        if (sparseLayer >= 0 && shared != null) {
            parts.add(new Part("the shared experts", named(layers + sparseLayer + ".mlp." + shared + ".", mlp), false));
        }
        if (sparseLayer >= 0) {
            parts.add(new Part(ROUTED, named(layers + sparseLayer + ".mlp.experts.0.", mlp), false));
        }
        if (!vision.isEmpty()) {
            parts.add(new Part("the vision tower", vision, true));
        }
        return parts;
    }

    private static final String ROUTED = "the routed experts";

    private static List<String> named(String prefix, List<String> modules) {
        return modules.stream().map(m -> prefix + m).toList();
    }

    /**
     * The scheme of a {@code compressed-tensors} {@code quantization_config}, or why it is not modelled, in words.
     *
     * @param parts the model's parts ({@link #parts}); empty for an architecture whose module names are not read, which
     *              is modelled only quantised throughout
     * @throws IllegalArgumentException with why, for a checkpoint the twin does not model
     */
    static Scheme scheme(JsonNode q, List<Part> parts) {
        JsonNode groups = q.path("config_groups");
        if (!groups.isObject() || groups.isEmpty()) {
            throw new IllegalArgumentException("compressed-tensors without \"config_groups\"");
        }
        if (groups.size() > 1) {
            throw new IllegalArgumentException("compressed-tensors with " + groups.size() + " groups (modelled: one, on"
                    + " every linear layer)");
        }
        String name = groups.fieldNames().next();
        JsonNode g = groups.get(name);
        if (!g.path("targets").equals(LINEAR)) {
            throw new IllegalArgumentException("compressed-tensors group " + name + " targeting " + g.path("targets")
                    + " (modelled: every linear layer, [\"Linear\"])");
        }
        JsonNode w = g.path("weights");
        JsonNode a = g.path("input_activations");
        boolean fp8 = floats8(w);
        String format = g.path("format").asText(q.path("format").asText(""));
        LowBitWeights kind = fp8 ? strategy(w).equals("block") ? LowBitWeights.FP8_BLOCK : LowBitWeights.NONE
                : floats4(w) ? LowBitWeights.NVFP4 : LowBitWeights.INTEGER;
        double bytes = switch (kind) {
            case NONE, FP8_BLOCK -> 1;
            case NVFP4 -> nvfp4Bytes(name, w, a, format);
            case INTEGER -> integerBytes(name, w, a, format);
        };
        if (fp8 && (!w.path("symmetric").asBoolean(true) || w.path("dynamic").asBoolean(false)
                || !List.of("tensor", "channel", "block").contains(strategy(w)))) {
            throw new IllegalArgumentException("compressed-tensors group " + name + " with weights " + w + " (modelled:"
                    + " static symmetric 8-bit float weights per tensor, channel or block)");
        }
        if (fp8 && (!floats8(a) || !(a.path("dynamic").asBoolean(false)
                || a.path("symmetric").asBoolean(true) && strategy(a).equals("tensor")))) {
            throw new IllegalArgumentException("compressed-tensors group " + name + " with input activations " + a
                    + " (modelled: 8-bit float activations, dynamic or per tensor; FP8 weights beside 16-bit activations"
                    + " are not)");
        }
        return scheme("compressed-tensors", kind, bytes, keptIn16Bits(q.path("ignore"), parts), parts);
    }

    /**
     * What a quantisation of one {@code kind} does to a model whose {@code kept} parts it leaves in 16 bits: every
     * linear layer quantised, or (but for FP8) the routed experts alone; anything else refused.
     *
     * @param format the checkpoint's format, for the messages: {@code compressed-tensors}, {@code ModelOpt NVFP4}
     * @param kept   the parts it leaves in 16 bits, each whole ({@link #kept})
     */
    static Scheme scheme(String format, LowBitWeights kind, double bytes, List<Part> kept, List<Part> parts) {
        for (Part part : parts) {
            if (part.vision() && !kept.contains(part)) {
                throw new IllegalArgumentException(format + " quantising " + part.what() + " (modelled: left in 16"
                        + " bits, as an entry such as \"re:vision_tower.*\" or \"vision_tower*\" leaves it)");
            }
        }
        List<Part> language = kept.stream().filter(p -> !p.vision()).toList();
        List<Part> text = parts.stream().filter(p -> !p.vision()).toList();
        if (language.isEmpty()) {
            return new Scheme(kind, bytes, false);
        }
        boolean expertsAlone = !kind.asTheirBytesSay() && language.size() == text.size() - 1 && text.stream()
                .filter(p -> !language.contains(p)).allMatch(p -> p.what().equals(ROUTED));
        if (expertsAlone) {
            return new Scheme(kind, bytes, true);
        }
        throw new IllegalArgumentException(format + " leaving " + String.join(" and ",
                language.stream().map(Part::what).toList()) + " in 16 bits (modelled: " + switch (kind) {
                    case NONE, FP8_BLOCK -> "FP8 on every linear layer";
                    case INTEGER -> "integer weights on every linear layer, or on the routed experts alone";
                    case NVFP4 -> "NVFP4 on every linear layer, or on the routed experts alone";
                } + ", the output head, the embeddings and the routers aside)");
    }

    /**
     * The parts a list of exclusions leaves in 16 bits, each whole: a part some of whose modules {@code excluded} names
     * and others not is refused, as a part the twin cannot count at one precision.
     *
     * @param format   the checkpoint's format, for the message
     * @param excluded whether the list names a module, as the engine matches its entries
     */
    static List<Part> kept(String format, List<Part> parts, Predicate<String> excluded) {
        List<Part> kept = new ArrayList<>();
        for (Part part : parts) {
            List<String> left = part.modules().stream().filter(excluded).toList();
            if (left.size() == part.modules().size()) {
                kept.add(part);
            } else if (!left.isEmpty()) {
                throw new IllegalArgumentException(format + " leaving some of " + part.what() + "'s modules in 16 bits ("
                        + String.join(", ", left) + ", not the rest; modelled: a part quantised or left whole)");
            }
        }
        return kept;
    }

    /**
     * Bytes an integer weight of a W4A16 or W8A16 group takes ({@link Scheme#bytesPerParameter}).
     *
     * @throws IllegalArgumentException naming the group, for one vLLM's {@code CompressedTensorsWNA16} does not take
     *                                  or Marlin runs not
     */
    private static double integerBytes(String name, JsonNode w, JsonNode a, String format) {
        int bits = w.path("num_bits").asInt(0);
        String strategy = strategy(w);
        JsonNode group = w.path("group_size");
        boolean grouped = strategy.equals("group") && group.canConvertToInt() && MARLIN_GROUP_SIZES.contains(group.asInt());
        if (!w.path("type").asText().equals("int") || bits != 4 && bits != 8 || w.path("dynamic").asBoolean(false)
                || !(grouped || strategy.equals("channel")) || !(a.isMissingNode() || a.isNull())
                || !format.equals("pack-quantized")) {
            throw new IllegalArgumentException("compressed-tensors group " + name + " with weights " + w
                    + (a.isMissingNode() || a.isNull() ? "" : " and input activations " + a) + " in the format \""
                    + format + "\" (modelled: 8-bit float weights and activations, or static 4- or 8-bit integer"
                    + " weights per channel or in groups of 32, 64 or 128 without input activations, pack-quantized)");
        }
        double weight = bits / 8.0;
        if (!grouped) {
            return weight;
        }
        // each group's 16-bit scale and, where the weights are not symmetric, its zero point of as many bits
        return weight + (2 + (w.path("symmetric").asBoolean(true) ? 0 : weight)) / group.asInt();
    }

    /**
     * The parts an {@code ignore} list leaves in 16 bits, each whole; an entry that names no part but the output head,
     * the embeddings or the routers, or a part it leaves partly, is refused.
     */
    private static List<Part> keptIn16Bits(JsonNode ignore, List<Part> parts) {
        List<String> entries = new ArrayList<>();
        ignore.forEach(entry -> entries.add(entry.asText()));
        List<Part> kept = kept("compressed-tensors", parts,
                module -> entries.stream().anyMatch(e -> names(e, module)));
        for (String entry : entries) {
            String lower = entry.toLowerCase(Locale.ROOT);
            // SGLang's should_ignore_layer matches a plain entry within a name (check_contains), vLLM's the whole name
            String within = entry.startsWith("re:") ? null : parts.stream().flatMap(p -> p.modules().stream())
                    .filter(module -> !module.equals(entry) && module.toLowerCase(Locale.ROOT).contains(lower))
                    .findFirst().orElse(null);
            if (within != null) {
                throw new IllegalArgumentException("compressed-tensors \"ignore\" entry \"" + entry + "\", which the"
                        + " engines read two ways: vLLM leaves out a module of exactly that name, SGLang every module whose"
                        + " name holds it (" + within + ", check_contains in its should_ignore_layer), so they would serve"
                        + " two models (modelled: entries both read alike, such as a re: pattern or a whole name)");
            }
            boolean aside = lower.contains("lm_head") || lower.contains("embed") || lower.matches(".*gate\\$?");
            if (!aside && parts.stream().flatMap(p -> p.modules().stream()).noneMatch(module -> names(entry, module))) {
                throw new IllegalArgumentException("compressed-tensors leaving \"" + entry + "\" unquantised (modelled:"
                        + " the output head, the embeddings and the routers"
                        + (parts.isEmpty() ? " only" : ", and whole parts: " + String.join(", ",
                        parts.stream().map(Part::what).toList())) + ")");
            }
        }
        return kept;
    }

    /** Whether an {@code ignore} entry names a module, as vLLM's {@code _is_equal_or_regex_match} decides. */
    private static boolean names(String entry, String module) {
        if (!entry.startsWith("re:")) {
            return entry.equals(module);
        }
        try {
            return Pattern.compile(entry.substring(3)).matcher(module).lookingAt();
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("compressed-tensors \"ignore\" entry \"" + entry + "\" is not a regular"
                    + " expression: " + e.getDescription());
        }
    }

    /**
     * Bytes an NVFP4 weight of a group takes ({@link LowBitWeights#NVFP4_BYTES_PER_PARAMETER}), for the W4A4 group
     * llm-compressor's {@code NVFP4} preset writes: 4-bit float weights and input activations, symmetric, in groups of 16
     * with a global scale ({@code "strategy": "tensor_group"}), in the {@code nvfp4-pack-quantized} format; vLLM's {@code
     * _is_fp4a4_nvfp4} takes it for {@code CompressedTensorsW4A4Fp4} ({@code compressed_tensors.py}).
     *
     * @throws IllegalArgumentException naming the group, for any other 4-bit float group: NVFP4 weights beside 16-bit
     *                                  activations ({@code NVFP4A16}, Marlin's weight-only kernel on every GPU), MXFP4
     */
    private static double nvfp4Bytes(String name, JsonNode w, JsonNode a, String format) {
        if (!nvfp4(w) || !nvfp4(a) || !format.equals("nvfp4-pack-quantized")) {
            throw new IllegalArgumentException("compressed-tensors group " + name + " with weights " + w
                    + (a.isMissingNode() || a.isNull() ? " and no input activations" : " and input activations " + a)
                    + " in the format \"" + format + "\" (modelled of 4-bit floats: NVFP4 W4A4, weights and input"
                    + " activations of 4-bit floats, symmetric, tensor_group of 16, nvfp4-pack-quantized)");
        }
        return LowBitWeights.NVFP4_BYTES_PER_PARAMETER;
    }

    private static boolean nvfp4(JsonNode args) {
        return floats4(args) && args.path("symmetric").asBoolean(true) && strategy(args).equals("tensor_group")
                && args.path("group_size").asInt() == LowBitWeights.NVFP4_GROUP_SIZE;
    }

    private static boolean floats4(JsonNode args) {
        return args.isObject() && args.path("num_bits").asInt() == 4 && args.path("type").asText().equals("float");
    }

    private static boolean floats8(JsonNode args) {
        return args.isObject() && args.path("num_bits").asInt() == 8 && args.path("type").asText().equals("float");
    }

    private static String strategy(JsonNode args) {
        return args.path("strategy").asText("").toLowerCase(Locale.ROOT);
    }
}
