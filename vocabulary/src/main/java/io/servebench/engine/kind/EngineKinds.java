package io.servebench.engine.kind;

import io.servebench.flags.EngineFlags;
import io.servebench.flags.FlagCatalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The engine kinds a study can name, and the one place that knows each by its name. A new kind (TensorRT-LLM's
 * {@code trtllm-serve}, llama.cpp's {@code llama-server}) is one more constant here and in {@link #ALL}: its
 * serve command, version command, cache reset, usage statistics and, for {@code @ServerOptions}, its dialect.
 */
public final class EngineKinds {

    /** vLLM's flags: {@code vllm serve}. */
    public static final FlagDialect VLLM_FLAGS = new FlagDialect(FlagCatalog.engineName(FlagCatalog.VLLM),
            List.of("vllm", "serve", FlagDialect.MODEL),
            EngineFlags.VLLM, EngineKinds::vllmSpeculative);

    /** SGLang's flags: {@code python3 -m sglang.launch_server}; the radix prefix cache is on by default. */
    public static final FlagDialect SGLANG_FLAGS = new FlagDialect(FlagCatalog.engineName(FlagCatalog.SGLANG),
            List.of("python3", "-m", "sglang.launch_server", "--model-path", FlagDialect.MODEL), EngineFlags.SGLANG,
            EngineKinds::sglangSpeculative);

    /**
     * vLLM, {@code vllm serve}; empties its prefix cache at {@code POST /reset_prefix_cache}, a route vLLM adds only
     * with {@code VLLM_SERVER_DEV_MODE=1} in its environment ({@code attach_router} in
     * {@code vllm/entrypoints/serve/cache/api_router.py}, 0.14 to the newest read), which it is started with.
     */
    public static final EngineKind VLLM = new ServerProgramKind(FlagCatalog.VLLM, VLLM_FLAGS, List.of("--version"),
            "reset_prefix_cache", true, Map.of("VLLM_SERVER_DEV_MODE", "1"), List.of(), null);

    /**
     * SGLang, {@code python3 -m sglang.launch_server}; empties its prefix cache at {@code POST /flush_cache}. Started
     * with {@code --enable-metrics} ({@code store_true} in {@code python/sglang/srt/server_args.py}), without which its
     * {@code /metrics} is a 404 and a trial has no server-side figures.
     */
    public static final EngineKind SGLANG = new ServerProgramKind(FlagCatalog.SGLANG, SGLANG_FLAGS,
            List.of("-c", "import sglang; print(sglang.__version__)"), "flush_cache", true, Map.of(),
            List.of("--enable-metrics"), EngineFlags.SGLANG_ADMIN_API_KEY);

    /** Any OpenAI-compatible server started from the study's argument list. */
    public static final EngineKind COMMAND = new CommandKind("command");

    /** A server already running at a URL. */
    public static final EngineKind ENDPOINT = new EndpointKind("endpoint");

    /** The simulated engine in the harness's JVM, the kind of a study without {@code @Engine}. */
    public static final EngineKind SIM = new SimulatedKind("sim", VLLM_FLAGS, "reset_prefix_cache");

    /** Every kind, in the order messages list them. */
    public static final List<EngineKind> ALL = List.of(VLLM, SGLANG, COMMAND, ENDPOINT, SIM);

    private EngineKinds() {
    }

    /** The kind of that name, if there is one. */
    public static Optional<EngineKind> byName(String name) {
        return ALL.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /**
     * The kind of that name.
     *
     * @throws IllegalArgumentException naming the unknown kind and the kinds there are
     */
    public static EngineKind named(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException(unknown(name)));
    }

    /** "unknown engine kind "x"; expected one of vllm, sglang, command, endpoint, sim". */
    public static String unknown(String name) {
        return "unknown engine kind \"" + name + "\"; expected one of " + String.join(", ", names());
    }

    /** Every kind's name. */
    public static List<String> names() {
        return ALL.stream().map(EngineKind::name).toList();
    }

    /** The kinds whose flags ServeBench knows, for messages: "vllm, sglang and sim". */
    static String withDialect() {
        return words(ALL.stream().filter(k -> k.dialect().isPresent()).map(EngineKind::name).toList(), "and");
    }

    /**
     * Everything wrong with a study's {@code @Engine} setup for {@code kind}: attribute to message. The kind's own
     * needs (a command, a URL) come first; then the attributes that belong to other kinds ({@code command} to
     * {@link #COMMAND}, {@code url} to {@link #ENDPOINT}, {@code image} to the kinds started as processes).
     */
    public static Map<String, String> setupProblems(EngineKind kind, EngineSetup setup) {
        Map<String, String> problems = new LinkedHashMap<>(kind.setupProblems(setup));
        if (!setup.command().isEmpty() && kind != COMMAND) {
            problems.putIfAbsent("command", "command is only for engine kind \"" + COMMAND.name() + "\"; this study's engine is \""
                    + kind.name() + "\"");
        }
        if (!setup.url().isEmpty() && kind != ENDPOINT) {
            problems.putIfAbsent("url", "url is only for engine kind \"" + ENDPOINT.name() + "\"; this study's engine is \""
                    + kind.name() + "\"");
        }
        if (!setup.image().isEmpty() && !(kind instanceof ProcessKind)) {
            problems.putIfAbsent("image", "image runs " + words(ALL.stream().filter(k -> k instanceof ProcessKind)
                    .map(EngineKind::name).toList(), "or") + " engines in a container; engine \"" + kind.name()
                    + "\" cannot use one");
        }
        return problems;
    }

    /** vLLM's {@code --speculative-config} JSON: the method, its draft model where it has one, the draft tokens. */
    private static List<String> vllmSpeculative(String method, int tokens, String draftModel, String servedModel) {
        String model = draftModel == null ? "" : ",\"model\":\"" + draftModel.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return List.of(EngineFlags.VLLM_SPECULATIVE_CONFIG + "={\"method\":\"" + method + "\"" + model
                + ",\"num_speculative_tokens\":" + tokens + "}");
    }

    /**
     * SGLang's speculative flags. EAGLE and NEXTN draft a chain of {@code tokens} steps (top-k 1), verified with the
     * last accepted token as {@code tokens + 1} draft tokens. NEXTN's draft is the served model's own MTP layers,
     * named as the draft model: {@code server_args.py} fills the draft path in only for a list of architectures
     * (DeepSeek V3, GLM-4 MoE, Bailing, Mistral Large 3, ...; not Qwen3-Next, Qwen3.5 or MiMo, whose draft config
     * {@code configs/model_config.py} still maps to their MTP heads), and for the others loads no draft without it.
     * NGRAM has no steps: its draft tokens include the last accepted token too ({@code cpp_ngram/param.h}:
     * {@code get_draft_token_num} is {@code draft_token_num - 1}), and a breadth of 1 makes its tree the chain vLLM's
     * n-gram drafts.
     */
    private static List<String> sglangSpeculative(String method, int tokens, String draftModel, String servedModel) {
        if (method.equals("ngram")) {
            return List.of(EngineFlags.SGLANG_SPECULATIVE_ALGORITHM + "=NGRAM",
                    EngineFlags.SGLANG_SPECULATIVE_NUM_DRAFT_TOKENS + "=" + (tokens + 1),
                    EngineFlags.SGLANG_SPECULATIVE_NGRAM_MAX_BFS_BREADTH + "=1");
        }
        String algorithm = switch (method) {
            case "mtp" -> "NEXTN";
            case "eagle" -> "EAGLE";
            case "eagle3" -> "EAGLE3";
            default -> throw new IllegalArgumentException("speculative = \"" + method + ":" + tokens
                    + "\": SGLang has no " + method + " drafting under this option; write its flags in @Variant(flags)");
        };
        List<String> flags = new java.util.ArrayList<>(List.of(EngineFlags.SGLANG_SPECULATIVE_ALGORITHM + "=" + algorithm,
                EngineFlags.SGLANG_SPECULATIVE_NUM_STEPS + "=" + tokens, EngineFlags.SGLANG_SPECULATIVE_EAGLE_TOPK + "=1",
                EngineFlags.SGLANG_SPECULATIVE_NUM_DRAFT_TOKENS + "=" + (tokens + 1)));
        if (draftModel != null || method.equals("mtp")) {
            flags.add(EngineFlags.SGLANG_SPECULATIVE_DRAFT_MODEL_PATH + "=" + (draftModel != null ? draftModel : servedModel));
        }
        return flags;
    }

    /** "a", "a or b", "a, b or c". */
    private static String words(List<String> items, String last) {
        int n = items.size();
        return n == 1 ? items.get(0) : String.join(", ", items.subList(0, n - 1)) + " " + last + " " + items.get(n - 1);
    }
}
