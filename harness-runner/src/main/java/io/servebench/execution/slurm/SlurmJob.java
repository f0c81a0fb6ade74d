package io.servebench.execution.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.engine.EngineParams;
import io.servebench.engine.ServerConfig;
import io.servebench.engine.kind.EngineKinds;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.engine.kind.Redaction;
import io.servebench.execution.ClientOptions;
import io.servebench.execution.ExecutionException;
import io.servebench.execution.ExecutionParams;
import io.servebench.flags.Flag;
import io.servebench.measure.SloParams;
import io.servebench.metrics.gpu.TelemetryParams;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.WorkloadParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one SLURM job measures, written by the coordinator to {@code jobs/KEY.json} next to the job's script and read by
 * its {@link SlurmWorker}: the job's trials as planned (ids, server configurations, workloads), their result blocks, how
 * to measure them and up to how many repetitions. The worker plans nothing and loads no study class: a job measures
 * exactly what its coordinator (a planned run, a tuner's round, a capacity probe) decided. Holds no secret: the API key
 * travels as its variable's name, and a server configuration whose environment names a secret is refused.
 *
 * @param key         names the job's files in {@code jobs/}
 * @param params      how to measure; its run folder is the coordinator's, shared with the nodes
 * @param repetitions how many repetitions each trial is to have once the job has ended
 * @param trials      the trials, of one server configuration, in running order
 * @param blocks      their result blocks
 */
public record SlurmJob(String key, ExecutionParams params, int repetitions, List<Trial> trials, List<ResultBlock> blocks) {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The contract's version: a worker of another build refuses a job it cannot read rightly. */
    private static final int FORMAT = 1;

    public SlurmJob {
        trials = List.copyOf(trials);
        blocks = List.copyOf(blocks);
    }

    /**
     * Writes the job to {@code file}.
     *
     * @throws ExecutionException when a server configuration's environment holds a secret, which a job file would keep
     */
    public void write(Path file) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT).put("key", key).put("repetitions", repetitions);
        root.set("params", params(params));
        ArrayNode trialNodes = root.putArray("trials");
        for (Trial t : trials) {
            trialNodes.add(trial(t));
        }
        ArrayNode blockNodes = root.putArray("blocks");
        for (ResultBlock b : blocks) {
            blockNodes.add(block(b));
        }
        Files.writeString(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }

    /** @throws ExecutionException when the file is missing or is not a job this build wrote, naming it */
    public static SlurmJob read(Path file) {
        try {
            JsonNode root = MAPPER.readTree(file.toFile());
            if (root == null || root.path("format").asInt() != FORMAT) {
                throw new IllegalArgumentException("expected a job of format " + FORMAT + " (is the worker's build the"
                        + " coordinator's?)");
            }
            Map<String, Trial> trials = new LinkedHashMap<>();
            for (JsonNode t : root.required("trials")) {
                Trial trial = trial(t);
                trials.put(trial.id(), trial);
            }
            List<ResultBlock> blocks = new ArrayList<>();
            for (JsonNode b : root.required("blocks")) {
                blocks.add(block(b, trials));
            }
            return new SlurmJob(root.required("key").asText(), params(root.required("params")),
                    root.required("repetitions").asInt(), List.copyOf(trials.values()), blocks);
        } catch (IOException | IllegalArgumentException e) {
            throw new ExecutionException("cannot read " + file + ", the job's trials (written by the run's coordinator"
                    + " when it submitted the job): " + e.getMessage());
        }
    }

    private static ObjectNode params(ExecutionParams p) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("outputDir", p.outputDir().toString()).put("repetitions", p.repetitions()).put("seed", p.seed())
                .put("freshServer", p.freshServer()).put("settleNs", p.settle().toNanos()).put("sliceNs", p.slice().toNanos())
                .put("slo", p.slo().toString()).put("progress", p.progress()).put("verbose", p.verbose()).put("quick", p.quick())
                .put("maxFailedShare", p.maxFailedShare());
        EngineParams e = p.engines();
        ObjectNode engines = node.putObject("engines");
        // the API key is not written: the worker reads it from its own environment (client.apiKeyEnv)
        engines.put("simulate", e.simulate().name()).put("seed", e.seed()).put("readyTimeoutNs", e.readyTimeout().toNanos())
                .put("graceNs", e.grace().toNanos()).put("containerRuntime", e.containerRuntime())
                .put("hfCache", e.hfCache() == null ? null : e.hfCache().toString()).put("simulatedGpu", e.simulatedGpu())
                .put("simulatedModelConfig", e.simulatedModelConfig() == null ? null : e.simulatedModelConfig().toString());
        e.simulatedAcceptance().forEach(engines.putArray("simulatedAcceptance")::add);
        TelemetryParams t = p.telemetry();
        ObjectNode telemetry = node.putObject("telemetry").put("source", t.source()).put("intervalNs", t.interval().toNanos());
        t.gpus().forEach(telemetry.putArray("gpus")::add);
        t.pricePerGpuHour().ifPresent(price -> telemetry.put("pricePerGpuHour", price));
        telemetry.put("url", t.url());
        ClientOptions c = p.client();
        node.putObject("client").put("apiKeyEnv", c.apiKeyEnv()).put("connectTimeoutNs", c.connectTimeout().toNanos())
                .put("requestTimeoutNs", c.requestTimeout().toNanos()).put("loadWorkers", c.loadWorkers());
        return node;
    }

    private static ExecutionParams params(JsonNode n) {
        JsonNode e = n.required("engines");
        EngineParams engines = new EngineParams(EngineParams.Simulate.valueOf(e.required("simulate").asText()),
                e.required("seed").asLong(), nanos(e, "readyTimeoutNs"), nanos(e, "graceNs"), text(e, "containerRuntime"),
                e.path("hfCache").isTextual() ? Path.of(e.get("hfCache").asText()) : null, null, null,
                text(e, "simulatedGpu"),
                e.path("simulatedModelConfig").isTextual() ? Path.of(e.get("simulatedModelConfig").asText()) : null)
                .withSimulatedAcceptance(acceptance(e.path("simulatedAcceptance")));
        JsonNode c = n.required("client");
        ClientOptions client = new ClientOptions(text(c, "apiKeyEnv"), nanos(c, "connectTimeoutNs"),
                nanos(c, "requestTimeoutNs"), c.path("loadWorkers").asInt(1));
        String slo = n.required("slo").asText();
        JsonNode t = n.path("telemetry");
        TelemetryParams telemetry = t.isObject() ? new TelemetryParams(text(t, "source"), nanos(t, "intervalNs"),
                java.util.stream.StreamSupport.stream(t.path("gpus").spliterator(), false).map(JsonNode::asInt).toList(),
                t.path("pricePerGpuHour").isNumber() ? java.util.OptionalDouble.of(t.get("pricePerGpuHour").asDouble())
                        : java.util.OptionalDouble.empty(), t.path("url").asText("")) : TelemetryParams.DEFAULTS;
        return new ExecutionParams(Path.of(n.required("outputDir").asText()), engines, n.required("repetitions").asInt(),
                n.required("seed").asLong(), n.required("freshServer").asBoolean(), nanos(n, "settleNs"), nanos(n, "sliceNs"),
                client, slo.isEmpty() ? SloParams.NONE : SloParams.parse(slo), n.required("progress").asBoolean(),
                n.path("verbose").asBoolean(false), n.required("quick").asBoolean(), telemetry,
                n.required("maxFailedShare").asDouble());
    }

    private static ObjectNode trial(Trial t) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", t.id()).put("serverId", t.serverId());
        ServerConfig s = t.server();
        String secret = s.setup().env().stream().filter(v -> Redaction.isSecretName(v.substring(0, Math.max(0, v.indexOf('=')))))
                .findFirst().orElse(null);
        if (secret != null) {
            throw new ExecutionException("--executor slurm: server " + t.serverId() + " is started with the secret "
                    + secret.substring(0, secret.indexOf('=') + 1) + Redaction.MASK + " in its environment, which a job file"
                    + " would hold; export it in the environment instead (sbatch passes it on to the job)");
        }
        ObjectNode server = node.putObject("server");
        server.put("kind", s.kind().name()).put("model", s.model());
        server.set("flags", MAPPER.valueToTree(s.flags()));
        server.set("setup", MAPPER.valueToTree(s.setup()));
        server.put("simulatedModelConfig", s.simulatedModelConfig());
        node.set("workload", MAPPER.valueToTree(t.workload()));
        return node;
    }

    private static Trial trial(JsonNode n) throws IOException {
        JsonNode s = n.required("server");
        List<Flag> flags = new ArrayList<>();
        for (JsonNode f : s.required("flags")) {
            flags.add(MAPPER.treeToValue(f, Flag.class));
        }
        ServerConfig server = new ServerConfig(EngineKinds.named(s.required("kind").asText()), s.required("model").asText(),
                flags, MAPPER.treeToValue(s.required("setup"), EngineSetup.class), s.path("simulatedModelConfig").asText(""));
        return new Trial(n.required("id").asText(), n.required("serverId").asText(), server,
                MAPPER.treeToValue(n.required("workload"), WorkloadParams.class));
    }

    private static ObjectNode block(ResultBlock b) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("benchmark", b.benchmark()).put("className", b.className()).put("variant", b.variant())
                .put("group", b.group()).put("baseline", b.baseline()).put("trial", b.trial().id())
                .put("recommended", b.recommended()).put("slo", b.slo().toString());
        node.set("paramValues", MAPPER.valueToTree(b.paramValues()));
        if (b.minAttainment().isPresent()) {
            node.put("minAttainment", b.minAttainment().getAsDouble());
        }
        return node;
    }

    private static ResultBlock block(JsonNode n, Map<String, Trial> trials) {
        Trial trial = trials.get(n.required("trial").asText());
        if (trial == null) {
            throw new IllegalArgumentException("block " + n.path("benchmark").asText() + " names trial "
                    + n.path("trial").asText() + ", which the job does not hold");
        }
        Map<String, String> values = new LinkedHashMap<>();
        n.required("paramValues").properties().forEach(e -> values.put(e.getKey(), e.getValue().asText()));
        String slo = n.required("slo").asText();
        return new ResultBlock(n.required("benchmark").asText(), n.required("className").asText(),
                n.required("variant").asText(), n.required("group").asText(), n.required("baseline").asBoolean(), values, trial,
                n.required("recommended").asBoolean(), slo.isEmpty() ? SloParams.NONE : SloParams.parse(slo),
                n.path("minAttainment").isNumber() ? OptionalDouble.of(n.get("minAttainment").asDouble()) : OptionalDouble.empty());
    }

    /** The simulated engine's draft acceptance as written: an array of rates, none where the job sets none. */
    private static List<Double> acceptance(JsonNode rates) {
        List<Double> out = new ArrayList<>();
        rates.forEach(r -> out.add(r.asDouble()));
        return out;
    }

    private static Duration nanos(JsonNode node, String field) {
        return Duration.ofNanos(node.required(field).asLong());
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.get(field).asText() : null;
    }
}
