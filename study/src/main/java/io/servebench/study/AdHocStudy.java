package io.servebench.study;

import io.servebench.annotations.Workload;
import io.servebench.engine.kind.EngineSetup;
import io.servebench.workload.LoadOption;
import io.servebench.workload.WorkloadSetting;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A study written on the command line ({@code benchmarks.jar run ...}): the same study model a class gives, so every
 * report, {@code compare}, {@code --resume}, SLURM and {@code --simulate} take it unchanged, and the {@code run}
 * arguments that wrote it, which the run records to be repeated or resumed. {@link #javaSource()} is the class that
 * declares the same study, for a user to carry on with in their own project.
 *
 * @param study the study: one variant, {@code baseline}; each rate or concurrency of a list a {@code @Param} value
 * @param args  the {@code run} subcommand's own arguments, in their canonical order
 */
public record AdHocStudy(StudyDescriptor study, List<String> args) {

    /** The one variant of an ad-hoc study. */
    public static final String VARIANT = "baseline";

    public AdHocStudy {
        Objects.requireNonNull(study, "study");
        args = List.copyOf(args);
    }

    /**
     * The study of these settings.
     *
     * @param className   the class name the study's benchmarks are reported under, e.g. {@code AdHoc}
     * @param model       the served model
     * @param engine      the engine kind ({@code endpoint} for a running server)
     * @param flags       the engine's flags, one argument each
     * @param setup       how the engine is reached or started (an endpoint's URLs)
     * @param workload    the workload, its rate and concurrency the first of their lists
     * @param rates       every rate to run; more than one becomes a {@code rate} param
     * @param concurrency every concurrency to run; more than one becomes a {@code concurrency} param
     * @param args        the arguments that wrote it
     */
    public static AdHocStudy of(String className, String model, String engine, List<String> flags, EngineSetup setup,
                                WorkloadOptions workload, List<String> rates, List<String> concurrency, List<String> args) {
        List<ParamSpec> params = new ArrayList<>();
        if (rates.size() > 1) {
            params.add(new ParamSpec(WorkloadSetting.RATE.key(), "double", rates));
        }
        if (concurrency.size() > 1) {
            params.add(new ParamSpec(WorkloadSetting.CONCURRENCY.key(), "int", concurrency));
        }
        VariantDescriptor baseline = new VariantDescriptor(VARIANT, "", List.of(), "", true, WorkloadOptions.UNSET, false,
                SloOptions.UNSET, io.servebench.engine.kind.ServerSettingsOptions.NONE);
        StudyDescriptor study = new StudyDescriptor(className, model, "", engine, flags, workload, params,
                List.of(baseline), setup, SloOptions.UNSET, io.servebench.engine.kind.ServerSettingsOptions.NONE,
                java.util.Optional.empty());
        return new AdHocStudy(study, args);
    }

    /**
     * The Java class that declares this study, which compiles with the annotation processor and reads back as the same
     * study: {@code @ServingBenchmark}, {@code @Engine}, {@code @Workload}, a {@code @Param} field per list, and the
     * {@code baseline} variant.
     */
    public String javaSource() {
        StringBuilder java = new StringBuilder();
        java.append("// ServeBench: the study of `java -jar benchmarks.jar run ").append(String.join(" ", args))
                .append("`\n");
        java.append("import io.servebench.annotations.Baseline;\n");
        java.append("import io.servebench.annotations.Engine;\n");
        if (!study.params().isEmpty()) {
            java.append("import io.servebench.annotations.Param;\n");
        }
        java.append("import io.servebench.annotations.ServingBenchmark;\n");
        java.append("import io.servebench.annotations.Variant;\n");
        java.append("import io.servebench.annotations.Workload;\n\n");
        java.append("@ServingBenchmark(model = ").append(literal(study.model())).append(")\n");
        java.append("@Engine(").append(engine()).append(")\n");
        java.append("@Workload(").append(workload()).append(")\n");
        java.append("public class ").append(study.className()).append(" {\n\n");
        for (ParamSpec p : study.params()) {
            java.append("    @Param({").append(p.values().stream().map(AdHocStudy::literal).collect(Collectors.joining(", ")))
                    .append("})\n    public ").append(p.type()).append(' ').append(p.name()).append(";\n\n");
        }
        java.append("    @Baseline\n    @Variant\n    public void ").append(VARIANT).append("() {\n    }\n}\n");
        return java.toString();
    }

    private String engine() {
        List<String> parts = new ArrayList<>();
        parts.add("value = " + literal(study.engineKind()));
        if (!study.engineFlags().isEmpty()) {
            parts.add("flags = {" + study.engineFlags().stream().map(AdHocStudy::literal)
                    .collect(Collectors.joining(", ")) + "}");
        }
        if (!study.engineSetup().url().isEmpty()) {
            parts.add("url = " + literal(study.engineSetup().url()));
        }
        return String.join(", ", parts);
    }

    private String workload() {
        WorkloadOptions w = study.workload();
        List<String> parts = new ArrayList<>();
        if (w.dataset() != null) {
            parts.add("dataset = " + literal(w.dataset()));
        }
        if (w.profile() != null) {
            parts.add("profile = " + literal(w.profile()));
        }
        if (w.rate() != null) {
            parts.add("rate = " + w.rate());
        }
        if (w.concurrency() != null) {
            parts.add("concurrency = " + w.concurrency());
        }
        if (w.requests() != null) {
            parts.add("requests = " + w.requests());
        }
        if (w.warmup() != null) {
            parts.add("warmup = " + w.warmup());
        }
        for (Map.Entry<String, String> option : w.options().entrySet()) {
            parts.add(option.getKey() + " = " + (textual(option.getKey()) ? literal(option.getValue()) : option.getValue()));
        }
        return String.join(",\n        ", parts);
    }

    /** Whether {@code @Workload}'s attribute {@code key} takes text rather than a number. */
    private static boolean textual(String key) {
        try {
            return Workload.class.getMethod(key).getReturnType() == String.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("@Workload has no attribute " + key + ", which LoadOption names", e);
        }
    }

    /** {@code text} as a Java string literal. */
    static String literal(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c < 0x20 ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return sb.append('"').toString();
    }
}
