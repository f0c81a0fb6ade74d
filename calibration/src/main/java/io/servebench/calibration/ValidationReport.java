package io.servebench.calibration;

import io.servebench.calibration.PublicResult.Figure;
import io.servebench.calibration.Validation.EngineChoice;
import io.servebench.calibration.Validation.Outcome;
import io.servebench.engine.kind.EngineKinds;

import io.servebench.sim.TwinEvidence;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The validation as markdown: every published case beside the twin, figure by figure with the error, the cases the
 * twin skipped and why, the engine-choice pairs with the direction each side gives, and the error bars the evidence
 * gives each kind of set-up ({@link Validation#evidence}: what a simulated block states).
 */
public final class ValidationReport {

    /** The error allowed on every figure of every case (issue 26's target). */
    public static final double TARGET = 0.20;

    private ValidationReport() {
    }

    /** Writes the tables of {@code outcomes}. */
    public static void write(PrintWriter out, List<Outcome> outcomes) {
        List<String> columns = new java.util.ArrayList<>(List.of("case", "engine", "model", "GPU x TP", "load"));
        for (Figure f : Figure.values()) {
            columns.add(f.label());
        }
        table(out, "Public results: published / twin (error)", columns);
        for (Outcome o : outcomes) {
            if (o.skipped().isPresent()) {
                continue;
            }
            PublicResult c = o.result();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %s | %s x %d | %s |", c.id(),
                    c.engine(), c.model(), c.gpu(), c.tensorParallel(), load(c)));
            for (Figure f : Figure.values()) {
                Double published = c.published().get(f);
                OptionalDouble error = o.error(f);
                line.append(published == null ? " |" : String.format(Locale.ROOT, " %s / %s (%s) |", trim(published),
                        trim(o.twin().get(f)), error.isPresent() ? String.format(Locale.ROOT, "%+.0f%%",
                                100 * error.getAsDouble()) : "n/a"));
            }
            out.println(line);
        }
        List<Outcome> skipped = outcomes.stream().filter(o -> o.skipped().isPresent()).toList();
        if (!skipped.isEmpty()) {
            out.println();
            out.println("Skipped: " + String.join("; ", skipped.stream()
                    .map(o -> o.result().id() + " (" + o.skipped().get() + ")").toList()) + ".");
        }
        List<EngineChoice> pairs = Validation.engineChoices(outcomes);
        if (!pairs.isEmpty()) {
            out.println();
            table(out, "Engine choice: SGLang over vLLM", List.of("set-up", "figure", "published", "twin", "same choice"));
            for (EngineChoice p : pairs) {
                out.printf(Locale.ROOT, "| %s, %s, %s | %s | %.2fx | %.2fx | %s |%n", p.vllm().result().model(),
                        p.vllm().result().gpu(), load(p.vllm().result()), p.figure().label(), p.publishedRatio(),
                        p.twinRatio(), p.sameDirection() ? "yes" : "**no**");
            }
        }
        List<TwinEvidence> bars = Validation.evidence(outcomes);
        if (!bars.isEmpty()) {
            out.println();
            table(out, "The twin's error bars: what a simulated block of each kind states", List.of("engine", "GPU",
                    "GPUs", "architecture", "load", "cases", "figures", "largest error", "mean error",
                    "twin faster on", "median speed, twin / published"));
            for (TwinEvidence e : bars) {
                out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %d | %.0f%% | %.0f%% | %d of %d | %.2fx |%n",
                        EngineKinds.named(e.engine()).dialect().orElseThrow().engineName(), e.gpu(),
                        !e.severalGpus() ? "one" : e.expertParallel() ? "several, expert-parallel" : "several",
                        e.architecture(), e.regime().words(), e.cases(), e.figures(), 100 * e.maxError(),
                        100 * e.meanError(), e.fasterFigures(), e.figures(), e.medianSpeedRatio());
            }
        }
        long run = outcomes.size() - skipped.size();
        long within = outcomes.stream().filter(o -> o.skipped().isEmpty()).filter(ValidationReport::withinTarget).count();
        out.println();
        String choices = pairs.isEmpty() ? "no set-up published on both engines among these cases"
                : String.format(Locale.ROOT, "%d of %d engine choices the same",
                        pairs.stream().filter(EngineChoice::sameDirection).count(), pairs.size());
        out.printf(Locale.ROOT, "%d of %d cases run; %d within ±%.0f%% on every figure; %s.%n", run, outcomes.size(),
                within, 100 * TARGET, choices);
        double[] errors = outcomes.stream().filter(o -> o.skipped().isEmpty())
                .flatMap(o -> o.result().published().keySet().stream().map(o::error))
                .filter(OptionalDouble::isPresent).mapToDouble(e -> Math.abs(e.getAsDouble())).toArray();
        if (errors.length > 0) {
            // which way, over every figure: the bars' lean, summed
            List<Double> speeds = outcomes.stream().filter(o -> o.skipped().isEmpty())
                    .flatMap(Validation.Outcome::speedRatios).toList();
            out.printf(Locale.ROOT, "%d published figures: mean absolute error %.1f%%, %d within ±%.0f%%; the twin faster than"
                            + " published on %d of them, a median %.2fx the published speed.%n", errors.length,
                    100 * java.util.Arrays.stream(errors).average().orElseThrow(),
                    java.util.Arrays.stream(errors).filter(e -> e <= TARGET).count(), 100 * TARGET,
                    speeds.stream().filter(r -> r > 1).count(), Validation.median(speeds));
        }
    }

    /** A section's title, then the head of its markdown table: these columns and the rule under them. */
    private static void table(PrintWriter out, String title, List<String> columns) {
        out.println("## " + title);
        out.println();
        out.println("| " + String.join(" | ", columns) + " |");
        out.println("|" + "---|".repeat(columns.size()));
    }

    /** Whether every figure the case publishes is within {@link #TARGET}. */
    public static boolean withinTarget(Outcome o) {
        return o.result().published().keySet().stream().allMatch(f -> {
            OptionalDouble e = o.error(f);
            return e.isPresent() && Math.abs(e.getAsDouble()) <= TARGET;
        });
    }

    private static String load(PublicResult c) {
        String data = c.dataset().equals("sharegpt") ? "ShareGPT"
                : c.inputLengths().orElse(Integer.toString(c.inputTokens().orElse(0))) + "/"
                        + c.outputLengths().orElse(Integer.toString(c.outputTokens().orElse(0)));
        String arrivals = c.requestRate().isPresent()
                ? trim(c.requestRate().getAsDouble()) + " req/s" + (c.poissonArrivals() ? " Poisson" : "")
                        + (c.concurrency().isPresent()
                        ? " (at most " + c.concurrency().getAsInt() + ")" : "")
                : c.concurrency().isPresent() ? "concurrency " + c.concurrency().getAsInt() : "all at once";
        return data + ", " + arrivals + (c.requests() > 0 ? ", " + c.requests() + " requests" : "");
    }

    private static String trim(Double v) {
        if (v == null || v.isNaN()) {
            return "-";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
