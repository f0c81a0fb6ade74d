package io.servebench.calibration;

import io.servebench.calibration.Calibration.BlockOutcome;
import io.servebench.calibration.Calibration.Constants;
import io.servebench.calibration.Calibration.Figure;
import io.servebench.calibration.Calibration.Role;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The calibration as markdown: the constants before and after the fit, every block's figures beside the
 * reference's with the error, and the largest held-out errors against the fidelity targets.
 */
public final class CalibrationReport {

    /**
     * The largest held-out error allowed on each figure (docs/simulated-engine.md, "Calibration"); TTFT and the per-token ITL,
     * which the reference does not report, have none.
     */
    static final Map<Figure, Double> TARGETS = Map.of(Figure.MEAN_LATENCY, 0.15, Figure.P95_LATENCY, 0.20,
            Figure.P95_ITL_PER_REQUEST, 0.20);

    private CalibrationReport() {
    }

    /** Writes the constants and the table of {@code blocks}. */
    public static void write(PrintWriter out, Constants start, Constants fitted, List<BlockOutcome> blocks) {
        out.println("## Engine-profile constants");
        out.println();
        out.println("| constant | before | fitted |");
        out.println("|---|---|---|");
        row(out, "vLLM per-sequence host time (us)", start.vllm().sequenceNanos() / 1e3, fitted.vllm().sequenceNanos() / 1e3);
        row(out, "vLLM front end (ms)", start.vllm().frontendNanos() / 1e6, fitted.vllm().frontendNanos() / 1e6);
        row(out, "SGLang per-sequence host time (us)", start.sglang().sequenceNanos() / 1e3,
                fitted.sglang().sequenceNanos() / 1e3);
        row(out, "SGLang front end (ms)", start.sglang().frontendNanos() / 1e6, fitted.sglang().frontendNanos() / 1e6);
        row(out, "MTP acceptance per draft position", start.mtpAcceptance(), fitted.mtpAcceptance());
        out.println();
        out.println("## Blocks: reference / twin (error)");
        out.println();
        StringBuilder head = new StringBuilder("| block | rate | role |");
        StringBuilder rule = new StringBuilder("|---|---|---|");
        for (Figure f : Figure.values()) {
            head.append(' ').append(f.label()).append(" |");
            rule.append("---|");
        }
        out.println(head);
        out.println(rule);
        for (BlockOutcome b : blocks) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s/%s %s | %s | %s |", b.block().group(),
                    b.block().variant(), b.block().engine(), trim(b.block().rate()), role(b.role())));
            for (Figure f : Figure.values()) {
                line.append(String.format(Locale.ROOT, " %s / %s (%+.0f%%) |", trim(b.block().metric(f.referenceName())),
                        trim(b.twin().get(f)), 100 * b.error(f)));
            }
            out.println(line);
        }
        out.println();
        out.println("## Errors against the fidelity targets");
        out.println();
        out.println("| figure | fit blocks, largest error | held-out blocks, largest error | target (held out) |");
        out.println("|---|---|---|---|");
        for (Figure f : Figure.values()) {
            Double target = TARGETS.get(f);
            out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", f.label(), largest(blocks, f, Role.FIT),
                    largest(blocks, f, Role.HELD_OUT), target == null ? "none" : String.format(Locale.ROOT, "±%.0f%%",
                            100 * target));
        }
        out.flush();
    }

    /** Whether every held-out block is within {@link #TARGETS}. */
    public static boolean withinTargets(List<BlockOutcome> blocks) {
        return blocks.stream().filter(b -> b.role() == Role.HELD_OUT)
                .allMatch(b -> TARGETS.entrySet().stream().allMatch(t -> Math.abs(b.error(t.getKey())) <= t.getValue()));
    }

    private static String largest(List<BlockOutcome> blocks, Figure f, Role role) {
        BlockOutcome worst = null;
        for (BlockOutcome b : blocks) {
            if (b.role() == role && (worst == null || Math.abs(b.error(f)) > Math.abs(worst.error(f)))) {
                worst = b;
            }
        }
        return worst == null ? "none" : String.format(Locale.ROOT, "%+.1f%% (%s/%s)", 100 * worst.error(f),
                worst.block().group(), worst.block().variant());
    }

    private static String role(Role role) {
        return switch (role) {
            case FIT -> "fit";
            case IN_SAMPLE -> "in sample";
            case HELD_OUT -> "held out";
        };
    }

    private static void row(PrintWriter out, String name, double before, double after) {
        out.printf(Locale.ROOT, "| %s | %s | %s |%n", name, trim(before), trim(after));
    }

    private static String trim(double v) {
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
