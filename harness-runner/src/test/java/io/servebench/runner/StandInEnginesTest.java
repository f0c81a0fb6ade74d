package io.servebench.runner;

import io.servebench.engine.EngineParams;
import io.servebench.measure.Metric;
import io.servebench.plan.EngineOverrides;
import io.servebench.results.BlockResult;
import io.servebench.results.PrefixCacheReset;
import io.servebench.results.RepetitionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real engine kinds end to end, through stand-ins for the engines' programs ({@code fake-engines/stand-in}): each
 * records the command line and environment ServeBench starts it with, then serves with the simulated engine in that
 * engine's dialect, which answers readiness, the cache reset, metrics and completions as the engine's source does. What
 * ServeBench must get right is what is checked: the arguments as the engine's argparse needs them, the environment,
 * readiness under a served model name, the reset with the right key, adapters named the engine's way.
 */
class StandInEnginesTest {

    private static final Path STAND_INS = Path.of("src/test/resources/fake-engines/stand-in").toAbsolutePath();

    private static RunOutcome run(Class<?> study, Path dir, Path log, String program, Map<String, String> environment)
            throws IOException {
        return run(study, dir, log, program, environment, io.servebench.execution.ClientOptions.DEFAULTS);
    }

    private static RunOutcome run(Class<?> study, Path dir, Path log, String program, Map<String, String> environment,
                                  io.servebench.execution.ClientOptions client) throws IOException {
        StringWriter console = new StringWriter();
        Path classPath = Files.writeString(dir.resolve("class-path"), System.getProperty("java.class.path"));
        RunOptions options = RunOptions.builder().include(study).outputDir(dir.resolve("run")).repetitions(2)
                .engineOverrides(new EngineOverrides(STAND_INS.resolve(program).toString(),
                        List.of("STANDIN_LOG=" + log, "STANDIN_CLASSPATH_FILE=" + classPath),
                        "", ""))
                .client(client).build();
        RunOutcome outcome = new Runner(options, new PrintWriter(console, true), environment::get).run();
        assertThat(outcome.allTrialsRan()).as(console.toString()).isTrue();
        return outcome;
    }

    /** The calls a stand-in recorded: each one's arguments, and its environment's entries. */
    private static List<List<String>> argvs(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("argv\t"))
                .map(l -> Arrays.asList(l.substring("argv\t".length()).split("\t", -1))).toList();
    }

    private static List<String> env(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.startsWith("env\t")).map(l -> l.substring(4)).toList();
    }

    private static void everyRequestSucceededAndEveryCacheWasEmptied(RunOutcome outcome) {
        BlockResult block = outcome.blocks().get(0);
        assertThat(block.repetitions()).hasSize(2).allSatisfy(r -> {
            assertThat(r.value(Metric.FAILED_REQUESTS).orElse(0)).as("failed requests").isZero();
            assertThat(r.value(Metric.SUCCESSFUL_REQUESTS).orElse(0)).isEqualTo(20);
            assertThat(r.cacheReset().outcome()).as(String.valueOf(r.cacheReset())).isEqualTo(PrefixCacheReset.Outcome.EMPTIED);
        });
    }

    /**
     * vLLM: {@code --lora-modules} is {@code nargs='+'} with {@code name, path = item.split("=")} per item
     * ({@code vllm/entrypoints/openai/cli_args.py}), so each adapter is an argument of its own; {@code /reset_prefix_cache}
     * exists only with {@code VLLM_SERVER_DEV_MODE=1}; with {@code --served-model-name} the API answers to that name
     * only, so readiness and every request use it; an adapter is named by its own name.
     */
    @Test
    void vllmGetsItsListFlagItemByItemAndIsReachedUnderItsServedName(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("vllm-calls.log");
        RunOutcome outcome = run(StandInVllmStudy.class, dir, log, "vllm", Map.of());

        List<List<String>> calls = argvs(log);
        assertThat(calls).singleElement().satisfies(argv -> {
            assertThat(argv).startsWith("serve", "Qwen/Qwen3-8B", "--host", "127.0.0.1", "--port");
            int at = argv.indexOf("--lora-modules");
            assertThat(argv.subList(at, at + 3)).containsExactly("--lora-modules", "sql-lora=/adapters/sql",
                    "chat-lora=/adapters/chat");
            assertThat(argv).containsSequence("--served-model-name", "qwen-small");
        });
        assertThat(env(log)).contains("VLLM_SERVER_DEV_MODE=1");
        everyRequestSucceededAndEveryCacheWasEmptied(outcome);
        // both adapters drawn, and each request ran on its adapter: the simulated vLLM refuses an unknown name with a 404
        RepetitionResult first = outcome.blocks().get(0).repetitions().get(0);
        assertThat(first.models()).containsKeys("sql-lora", "chat-lora");
        // vLLM picks its batch limits by the GPU, and this machine has none to say which: the block says so
        assertThat(Files.readString(dir.resolve("run").resolve("summary.md"))).contains("| Limits the engine set itself |"
                + " engine default: vLLM sets max_num_seqs and max_num_batched_tokens by the GPU");
    }

    /**
     * SGLang: {@code --lora-paths} is {@code nargs="*"}; an adapter is {@code "base:adapter"} in {@code model}
     * ({@code serving_base.py}, {@code _parse_model_parameter}); with {@code --admin-api-key} set, {@code /flush_cache}
     * wants that key and no other ({@code utils/auth.py}, ADMIN_OPTIONAL), so every reset would fail without it. Its
     * API key comes from the variable {@code --api-key-env} names, as the requests send it: started with
     * {@code --api-key}, the engine turns away every request without it.
     */
    @Test
    void sglangGetsItsKeysFromTheEnvironmentAndItsAdaptersAsBaseColonAdapter(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("sglang-calls.log");
        RunOutcome outcome = run(StandInSglangStudy.class, dir, log, "sglang-python",
                Map.of(io.servebench.flags.EngineFlags.ADMIN_API_KEY_ENV, "sk-admin-7", "SB_API_KEY", "sk-api-3"),
                new io.servebench.execution.ClientOptions("SB_API_KEY", java.time.Duration.ofSeconds(5),
                        java.time.Duration.ofSeconds(60)));

        assertThat(argvs(log)).singleElement().satisfies(argv -> {
            assertThat(argv).startsWith("-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--host",
                    "127.0.0.1", "--port");
            int at = argv.indexOf("--lora-paths");
            assertThat(argv.subList(at, at + 3)).containsExactly("--lora-paths", "sql-lora=/adapters/sql",
                    "chat-lora=/adapters/chat");
            assertThat(argv).contains("--enable-metrics");
            int key = argv.indexOf("--admin-api-key");
            assertThat(argv.get(key + 1)).isEqualTo("sk-admin-7");
            assertThat(argv.get(argv.indexOf("--api-key") + 1)).isEqualTo("sk-api-3");
        });
        everyRequestSucceededAndEveryCacheWasEmptied(outcome);
        RepetitionResult first = outcome.blocks().get(0).repetitions().get(0);
        assertThat(first.models()).containsKeys("sql-lora", "chat-lora");
        // no request fell back to the base model, which SGLang does without a word for a name it does not know
        String engineLog;
        try (var logs = Files.list(dir.resolve("run").resolve("logs"))) {
            engineLog = Files.readString(logs.findFirst().orElseThrow());
        }
        assertThat(engineLog).doesNotContain("runs the base model").doesNotContain("sk-admin-7", "sk-api-3");
        for (String file : List.of("summary.md", "results.json", "journal.jsonl")) {
            assertThat(Files.readString(dir.resolve("run").resolve(file))).as(file).doesNotContain("sk-admin-7", "sk-api-3");
        }
    }
}
