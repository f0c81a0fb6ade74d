package io.servebench.cli;

import io.servebench.processor.InMemoryCompiler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.runner.RunOptions;
import io.servebench.runner.Runner;
import io.servebench.truth.Script;
import io.servebench.truth.TruthServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code benchmarks.jar run}: a study written on the command line runs against a server, and the class
 * {@code --print-study} prints compiles with the processor and, run on the same server with the same seed, gives the same
 * blocks (names, params, request counts).
 */
class AdHocRunTest {

    private TruthServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static int main(StringWriter out, List<String> args) {
        return Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(out, true));
    }

    @Test
    void aStudyWrittenOnTheCommandLineRunsAndItsPrintedClassGivesTheSameBlocks(@TempDir Path dir) throws Exception {
        server = TruthServer.start(Script.defaults().withTtft(Duration.ofMillis(5)).withTokensPerRequest(4), 0);
        List<String> run = List.of("run", "--target", server.baseUri().toString(), "--model", TruthServer.MODEL,
                "--rate", "20,40", "--requests", "30", "--api", "completions");

        StringWriter console = new StringWriter();
        List<String> adHoc = new ArrayList<>(run);
        adHoc.addAll(List.of("-o", dir.resolve("adhoc").toString(), "--seed", "7"));
        assertThat(main(console, adHoc)).as(console.toString()).isZero();
        // a real server's figures are measurements: no rehearsal is stated
        assertThat(console.toString()).contains("Done: 2 of 2 trials complete").doesNotContain("rehearsal");
        JsonNode written = new ObjectMapper().readTree(dir.resolve("adhoc").resolve("results.json").toFile());
        assertThat(written).hasSize(2);

        StringWriter printed = new StringWriter();
        List<String> print = new ArrayList<>(run);
        print.add("--print-study");
        assertThat(main(printed, print)).isZero();
        InMemoryCompiler.Result compiled = InMemoryCompiler.compile(printed.toString());
        assertThat(compiled.errorMessages()).as(printed.toString()).isEmpty();
        assertThat(compiled.output("META-INF/servebench/BenchmarkList")).contains("AdHoc.baseline");

        Class<?> study = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] bytes = compiled.outputs().get(name.replace('.', '/') + ".class");
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            }

            // the reader finds the declaration order in the class file, next to the class
            @Override
            public java.io.InputStream getResourceAsStream(String name) {
                byte[] bytes = compiled.outputs().get(name);
                return bytes != null ? new java.io.ByteArrayInputStream(bytes) : super.getResourceAsStream(name);
            }
        }.loadClass("AdHoc");
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(study.getClassLoader());
        try {
            new Runner(RunOptions.builder().include(study).seed(7).outputDir(dir.resolve("class")).build(),
                    new PrintWriter(new StringWriter())).run();
        } finally {
            thread.setContextClassLoader(before);
        }
        JsonNode declared = new ObjectMapper().readTree(dir.resolve("class").resolve("results.json").toFile());
        assertThat(blocks(written)).isEqualTo(blocks(declared)).hasSize(2);
        assertThat(blocks(written).get(0)).isEqualTo("AdHoc.baseline rate=20 requests 30");

        // and the recorded command line is the run command, which --resume reads back
        assertThat(Files.readString(dir.resolve("adhoc").resolve("summary.md")))
                .contains("run --target " + server.baseUri());
        StringWriter resumed = new StringWriter();
        assertThat(main(resumed, List.of("--resume", dir.resolve("adhoc").toString()))).as(resumed.toString()).isZero();
        assertThat(resumed.toString()).contains("2 of 2 trials complete before");
    }

    @Test
    void aTrialPickedByItsKeyRunsAloneAndItsResumeRunsNoOther(@TempDir Path dir) throws Exception {
        List<String> study = List.of("run", "--engine", "vllm", "--simulate=virtual", "--model", "Qwen/Qwen3-8B", "--rate",
                "4,8", "--requests", "20", "--dataset", "synthetic:in=fixed(64),out=fixed(16)");
        StringWriter plan = new StringWriter();
        List<String> dryRun = new ArrayList<>(study);
        dryRun.add("--dry-run");
        assertThat(main(plan, dryRun)).as(plan.toString()).isZero();
        // "t02-vllm-HASH-constant-8   ...": the key is the id without its running number
        String id = plan.toString().lines().filter(l -> l.startsWith("t02-")).findFirst().orElseThrow().split("\\s+")[0];
        String key = id.substring("t02-".length());
        assertThat(key).startsWith("vllm-").endsWith("-constant-8");

        List<String> one = new ArrayList<>(study);
        one.addAll(List.of("--trial", key, "-o", dir.resolve("one").toString()));
        StringWriter out = new StringWriter();
        assertThat(main(out, one)).as(out.toString()).isZero();
        assertThat(out.toString()).contains("[1/1] " + id + ":").contains("Done: 1 of 1 trials complete");
        // the console's last lines say what the summary's first screen says of the simulated engine's figures: 20
        // requests at 8 req/s arrive in 2.5 s, all at once by the published cases' rule
        assertThat(out.toString()).contains("Engines: the simulated engine in virtual time (--simulate=virtual) — a"
                        + " rehearsal, not a measurement. How far the twin matched published results of the same kind:\n"
                        + "  - vLLM, dense model, one H100, all at once or in a closed loop: within ±")
                .containsPattern("the twin ran faster than published on \\d+ of \\d+ of them, a median \\d+% faster\n"
                        + "Done: 1 of 1 trials complete");
        assertThat(Files.readString(dir.resolve("one").resolve("summary.md"))).contains("--trial " + key);
        // the recorded command line keeps the pick: a resume finds the run complete, not a second trial to run
        StringWriter resumed = new StringWriter();
        assertThat(main(resumed, List.of("--resume", dir.resolve("one").toString()))).as(resumed.toString()).isZero();
        assertThat(resumed.toString()).contains("1 of 1 trials complete before");

        List<String> unknown = new ArrayList<>(study);
        unknown.addAll(List.of("--trial", "vllm-0000-constant-8", "-o", dir.resolve("none").toString()));
        StringWriter refused = new StringWriter();
        assertThat(main(refused, unknown)).isEqualTo(Main.BAD_INPUT);
        assertThat(refused.toString()).contains("--trial vllm-0000-constant-8: the plan has no such trial; expected one of "
                + key.replace("-constant-8", "-constant-4") + ", " + key);
    }

    @Test
    void aSweepFromTheCommandLineTakesItsRateCount(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sglang", "--simulate=virtual", "--model", "Qwen/Qwen3-8B",
                "--profile", "sweep", "--requests", "20", "--dataset", "synthetic:in=fixed(64),out=fixed(16)")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("profile sweep needs sweepRates; expected sweepRates = K (run --sweep-rates K on"
                + " the command line)");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sglang", "--simulate=virtual", "--model", "Qwen/Qwen3-8B",
                "--profile", "sweep", "--sweep-rates", "2", "--requests", "20", "--dataset",
                "synthetic:in=fixed(64),out=fixed(16)", "-o", dir.toString()))).as(out.toString()).isZero();
        // synchronous, throughput, then two constant rates between them: a block each
        JsonNode results = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(results).hasSize(4);
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("AdHoc.baseline[s1-synchronous] · one at a time",
                "AdHoc.baseline[s2-throughput] · all at once").contains("--sweep-rates 2");
    }

    /** Each block as its name, params and measured request count. */
    private static List<String> blocks(JsonNode results) {
        List<String> blocks = new ArrayList<>();
        for (JsonNode entry : results) {
            StringBuilder block = new StringBuilder(entry.get("benchmark").asText());
            for (Map.Entry<String, JsonNode> p : (Iterable<Map.Entry<String, JsonNode>>) entry.get("params")::fields) {
                block.append(' ').append(p.getKey()).append('=').append(p.getValue().asText());
            }
            // JMH marks secondary metrics with a middle dot
            block.append(" requests ").append(entry.path("secondaryMetrics").path("\u00b7successful_requests")
                    .path("score").asInt(-1));
            blocks.add(block.toString());
        }
        return blocks;
    }

    @Test
    void engineFlagsAreTakenAsTheEnginesOwnCommandLineTakesThem() throws Exception {
        StringWriter printed = new StringWriter();
        assertThat(main(printed, List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3-8B", "--rate", "4", "--flags",
                "--max-num-seqs 64 --max-model-len=8192 --enable-prefix-caching", "--print-study"))).as(printed.toString())
                .isZero();
        assertThat(printed.toString()).contains("\"--max-num-seqs 64\", \"--max-model-len=8192\", \"--enable-prefix-caching\"");
        InMemoryCompiler.Result compiled = InMemoryCompiler.compile(printed.toString());
        assertThat(compiled.errorMessages()).as(printed.toString()).isEmpty();

        // a value after a switch is refused as the engine's own parser would, naming the flag
        StringWriter out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3-8B", "--rate", "4", "--flags",
                "--enable-prefix-caching 64", "--print-study"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--enable-prefix-caching").contains("is a switch; expected it without a value");
    }

    @Test
    void everyWorkloadSettingIsAnOptionOfRunNamedByItsKey() throws Exception {
        // the options vllm bench serve users reach for (--burstiness, --max-concurrency), and the settings that were
        // -p alone before run took every one: each becomes the @Workload attribute of its name
        StringWriter printed = new StringWriter();
        assertThat(main(printed, List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3-8B", "--profile", "gamma",
                "--rate", "4", "--burstiness", "0.5", "--max-concurrency", "16", "--warmup-seconds", "10",
                "--extra-body", "{\"temperature\": 0, \"top_p\": 1}", "--cancellation-rate", "20",
                "--cancellation-after", "first-token", "--timeout-seconds", "60", "--models", "sql-lora:3,chat-lora:1",
                "--duration-seconds", "120", "--exact-output", "false", "--print-study"))).as(printed.toString()).isZero();
        assertThat(printed.toString()).contains("profile = \"gamma\"", "rate = 4.0", "burstiness = 0.5",
                "maxConcurrency = 16", "warmupSeconds = 10", "extraBody = \"{\\\"temperature\\\": 0, \\\"top_p\\\": 1}\"",
                "cancellationRate = 20", "cancellationAfter = \"first-token\"", "timeoutSeconds = 60",
                "models = \"sql-lora:3,chat-lora:1\"", "durationSeconds = 120", "exactOutput = \"false\"");
        assertThat(InMemoryCompiler.compile(printed.toString()).errorMessages()).as(printed.toString()).isEmpty();
        // --duration, run's spelling before it took every setting, still reads (recorded command lines hold it)
        printed = new StringWriter();
        assertThat(main(printed, List.of("run", "--engine", "vllm", "--model", "m", "--rate", "4", "--duration", "30",
                "--print-study"))).as(printed.toString()).isZero();
        assertThat(printed.toString()).contains("durationSeconds = 30");
    }

    @Test
    void rateInfSendsEveryRequestAtOnceAsVllmBenchServeDoes() throws Exception {
        // vllm bench serve --request-rate inf --max-concurrency 8: the throughput profile, capped at 8 in flight
        StringWriter printed = new StringWriter();
        assertThat(main(printed, List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3-8B", "--rate", "inf",
                "--max-concurrency", "8", "--requests", "200", "--print-study"))).as(printed.toString()).isZero();
        assertThat(printed.toString()).contains("@Workload(profile = \"throughput\",").doesNotContain("rate =")
                .contains("maxConcurrency = 8)");
        assertThat(InMemoryCompiler.compile(printed.toString()).errorMessages()).as(printed.toString()).isEmpty();

        StringWriter out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sim", "--model", "m", "--rate", "4,inf")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--rate 4,inf: inf sends every request at once (the throughput profile),"
                + " which is a block of its own; expected --rate inf alone");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sim", "--model", "m", "--rate", "INF", "--profile", "poisson")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--rate inf sends every request at once, which --profile poisson does not");
    }

    @Test
    void aServerThatRefusesMinTokensAndIgnoreEosIsServedWithExactOutputFalse(@TempDir Path dir) throws Exception {
        // the OpenAI API itself and gateways that check the schema answer 400 to fields they do not know: the default
        // exact reply length (min_tokens, ignore_eos) fails every request there, exactOutput=false asks max_tokens alone
        com.sun.net.httpserver.HttpServer strict = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
        strict.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            bodies.add(body);
            String reply;
            int status = 200;
            String type = "application/json";
            if (path.equals("/v1/models")) {
                reply = "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}";
            } else if (body.contains("min_tokens") || body.contains("ignore_eos")) {
                status = 400;
                reply = "{\"error\":{\"message\":\"Unrecognized request argument supplied: min_tokens\"}}";
            } else if (path.equals("/v1/chat/completions") && body.contains("\"stream\":true")) {
                type = "text/event-stream";
                StringBuilder sse = new StringBuilder();
                for (int i = 0; i < 3; i++) {
                    sse.append("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok \"}}]}\n\n");
                }
                sse.append("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n");
                reply = sse.append("data: [DONE]\n\n").toString();
            } else {
                reply = "{\"choices\":[{\"text\":\"hi\"}]}";
            }
            byte[] bytes = reply.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        strict.start();
        try {
            String url = "http://127.0.0.1:" + strict.getAddress().getPort();
            StringWriter refused = new StringWriter();
            assertThat(main(refused, List.of("run", "--target", url, "--model", "m", "--rate", "20", "--requests", "5",
                    "-o", dir.resolve("exact").toString()))).isEqualTo(1);
            assertThat(refused.toString()).contains("every measured request failed").contains("min_tokens")
                    .contains("-p exactOutput=false sends max_tokens alone");

            bodies.clear();
            StringWriter served = new StringWriter();
            assertThat(main(served, List.of("run", "--target", url, "--model", "m", "--rate", "20", "--requests", "5",
                    "-p", "exactOutput=false", "-o", dir.resolve("atMost").toString()))).as(served.toString()).isZero();
            assertThat(bodies).filteredOn(b -> b.contains("\"stream\":true")).hasSize(5)
                    .allSatisfy(b -> assertThat(b).contains("\"max_tokens\"").doesNotContain("min_tokens")
                            .doesNotContain("ignore_eos"));
            assertThat(Files.readString(dir.resolve("atMost").resolve("summary.md"))).contains("exactOutput = `false`");
        } finally {
            strict.stop(0);
        }
    }

    @Test
    void anEnginesOwnCountsThatWentBackAreLeftOutWithANote(@TempDir Path dir) throws Exception {
        // an endpoint whose /metrics counter is lower at the end of the load than at its start (a restart, or another
        // replica behind one address): its figures are not of the load, and a block that showed them would mislead
        java.util.concurrent.atomic.AtomicInteger streamed = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer endpoint = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            String reply;
            String type = "application/json";
            if (path.equals("/metrics")) {
                type = "text/plain";
                // high until the load has sent its requests, then low: the second scrape of the load sees it go back
                reply = "vllm:generation_tokens_total{model_name=\"m\"} " + (streamed.get() < 5 ? 5000 : 40)
                        + ".0\nvllm:prompt_tokens_total{model_name=\"m\"} 100.0\n";
            } else if (path.equals("/v1/models")) {
                reply = "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}";
            } else if (body.contains("\"stream\":true")) {
                streamed.incrementAndGet();
                type = "text/event-stream";
                reply = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a \"}}]}\n\n"
                        + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b \"}}]}\n\n"
                        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\n\n"
                        + "data: [DONE]\n\n";
            } else {
                reply = "{\"choices\":[{\"text\":\"hi\"}]}";
            }
            byte[] bytes = reply.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        endpoint.start();
        try {
            StringWriter out = new StringWriter();
            assertThat(main(out, List.of("run", "--target", "http://127.0.0.1:" + endpoint.getAddress().getPort(),
                    "--model", "m", "--rate", "20", "--requests", "5", "-o", dir.toString()))).as(out.toString()).isZero();
            String summary = Files.readString(dir.resolve("summary.md"));
            assertThat(summary).contains("the engine's own figures (/metrics) are left out, as they are not of this load:"
                    + " its generation_tokens went back by 4960 over the repetition")
                    .contains("| Server-side metrics | left out: they are not of this load (see the note) |");
            assertThat(summary).doesNotContain("Generated tokens (server)");
            // it also answers 2 tokens whatever the request asks: min_tokens and ignore_eos are not honoured
            assertThat(summary).containsPattern("5 of 5 measured requests that asked for exactly their reply's length"
                    + " \\(min_tokens = max_tokens, ignore_eos\\) ended sooner, by the server's own count \\(10 tokens of the"
                    + " \\d+ they asked for\\)");
        } finally {
            endpoint.stop(0);
        }
    }

    @Test
    void badRunOptionsAreRefusedNamingWhatWasExpected() {
        StringWriter out = new StringWriter();
        assertThat(main(out, List.of("run", "--model", "m"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("give either --target URL (a running server) or --engine KIND");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--model", "m", "--rate", "4", "--simulate=virtual"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--simulate stands the simulated engine in for the engine a run starts; name"
                + " that engine, e.g. --engine vllm --simulate=virtual");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "tgi", "--model", "m"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--engine tgi is not one ServeBench starts from a model; expected one of"
                + " vllm, sglang, sim");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "m", "--rate", "0,4"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--rate 0 is not a positive, finite number of requests per second");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "m", "--rate", "4", "--requests", "ten")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--requests ten is not a positive number of measured requests");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "m", "--concurrency", "2.5")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--concurrency 2.5 is not a positive number of in-flight requests");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "m", "--rate", "4", "--max-concurrency", "0")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--max-concurrency 0: maxConcurrency = 0 is out of range; expected a positive"
                + " number of requests in flight");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "vllm", "--model", "m", "--rate", "4", "--cancellation-after",
                "eos"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("--cancellation-after eos: cancellationAfter = \"eos\" is unknown; expected"
                + " send or first-token");
        // a rate and streams together, or either with a profile that ignores it, would run another load than asked
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sim", "--model", "m", "--rate", "4", "--concurrency", "8")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("rate and concurrency are two kinds of load").contains("a rate with"
                + " maxConcurrency (--max-concurrency) for at most N requests in flight");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sim", "--model", "m", "--profile", "poisson", "--concurrency",
                "8"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("concurrency is the concurrent profile's number of streams, and profile"
                + " poisson would ignore it");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--engine", "sim", "--model", "m", "--profile", "synchronous", "--rate",
                "2"))).isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("profile synchronous sends no requests at a rate, so the rate would be"
                + " ignored");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--target", "http://h:1", "--model", "m", "--profile", "ramp")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("unknown profile \"ramp\"");
        out = new StringWriter();
        assertThat(main(out, List.of("run", "--target", "http://h:1", "--model", "m", "QuickStart")))
                .isEqualTo(Main.BAD_INPUT);
        assertThat(out.toString()).contains("run takes no study class (QuickStart)");
    }
}
