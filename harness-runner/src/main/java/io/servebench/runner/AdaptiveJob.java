package io.servebench.runner;

import io.servebench.tuning.Tuner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servebench.study.VariantDescriptor;
import io.servebench.study.WorkloadOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one SLURM job of an adaptive run (a tuner, a capacity search) measures, since its worker cannot plan it from
 * the command line: the configurations to run, up to how many repetitions each, and every configuration the run had
 * asked for until then, in order, from which the worker gives each trial the id the coordinator gave it. The
 * coordinator writes it to {@code jobs/KEY.json} next to the job's script; the worker reads it.
 *
 * @param asked       the run's configurations so far, in the order it first asked for them
 * @param run         those this job measures: one server configuration's
 * @param repetitions how many repetitions each is to have once the job has ended
 */
record AdaptiveJob(List<Tuner.Candidate> asked, List<Tuner.Candidate> run, int repetitions) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    AdaptiveJob {
        asked = List.copyOf(asked);
        run = List.copyOf(run);
    }

    void write(Path file) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("repetitions", repetitions);
        ArrayNode all = root.putArray("asked");
        asked.forEach(c -> all.add(candidate(c)));
        ArrayNode mine = root.putArray("run");
        run.forEach(c -> mine.add(candidate(c)));
        Files.writeString(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }

    /** @throws RunnerException when the file is missing or is not a job of an adaptive run, naming it */
    static AdaptiveJob read(Path file) {
        try {
            JsonNode root = MAPPER.readTree(file.toFile());
            return new AdaptiveJob(candidates(root.required("asked")), candidates(root.required("run")),
                    root.required("repetitions").asInt());
        } catch (IOException | IllegalArgumentException e) {
            throw new RunnerException("cannot read " + file + ", the job's configurations (written by the run's coordinator"
                    + " when it submitted the job): " + e.getMessage());
        }
    }

    private static ObjectNode candidate(Tuner.Candidate c) {
        ObjectNode node = MAPPER.createObjectNode();
        VariantDescriptor v = c.variant();
        ObjectNode variant = node.putObject("variant");
        variant.put("name", v.name()).put("group", v.group()).put("engine", v.engine()).put("baseline", v.baseline())
                .put("recommended", v.recommended());
        v.flags().forEach(variant.putArray("flags")::add);
        WorkloadOptions w = v.workload();
        ObjectNode workload = variant.putObject("workload");
        workload.put("dataset", w.dataset()).put("profile", w.profile()).put("rate", w.rate())
                .put("concurrency", w.concurrency()).put("requests", w.requests()).put("warmup", w.warmup());
        workload.set("options", MAPPER.valueToTree(w.options()));
        node.set("params", MAPPER.valueToTree(c.paramValues()));
        node.put("rate", c.rate());
        return node;
    }

    private static List<Tuner.Candidate> candidates(JsonNode array) {
        List<Tuner.Candidate> candidates = new ArrayList<>();
        for (JsonNode node : array) {
            JsonNode v = node.required("variant");
            JsonNode w = v.required("workload");
            List<String> flags = new ArrayList<>();
            v.required("flags").forEach(f -> flags.add(f.asText()));
            WorkloadOptions workload = new WorkloadOptions(text(w, "dataset"), text(w, "profile"),
                    w.path("rate").isNumber() ? w.get("rate").asDouble() : null,
                    w.path("concurrency").isNumber() ? w.get("concurrency").asInt() : null,
                    w.path("requests").isNumber() ? w.get("requests").asInt() : null,
                    w.path("warmup").isNumber() ? w.get("warmup").asInt() : null, strings(w.path("options")));
            VariantDescriptor variant = new VariantDescriptor(v.required("name").asText(), v.required("group").asText(),
                    flags, v.required("engine").asText(), v.required("baseline").asBoolean(), workload,
                    v.required("recommended").asBoolean());
            candidates.add(new Tuner.Candidate(variant, strings(node.path("params")), node.required("rate").asDouble()));
        }
        return candidates;
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.get(field).asText() : null;
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> values = new LinkedHashMap<>();
        object.properties().forEach(e -> values.put(e.getKey(), e.getValue().asText()));
        return values;
    }
}
