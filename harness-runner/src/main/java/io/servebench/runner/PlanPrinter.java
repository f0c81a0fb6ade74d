package io.servebench.runner;

import io.servebench.engine.Engines;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;
import io.servebench.plan.WorkloadParams;

import java.io.PrintWriter;
import java.util.stream.Collectors;

/** {@code --dry-run}: the trial plan as a run would carry it out, one line per trial. */
final class PlanPrinter {

    private PlanPrinter() {
    }

    /**
     * Prints one line per trial (id, engine and flags, the workload as sent, the result blocks it serves), then
     * {@code N result blocks from M distinct trials} and {@code M trials, S server starts}.
     */
    static void print(TrialPlan plan, RunParams params, PrintWriter out) {
        for (Trial trial : plan.trials()) {
            WorkloadParams w = params.execution().asSent(trial.workload());
            out.printf("%-34s %s | %s | %s%n", trial.id(), Engines.label(trial.server(), params.engines()), w.label(),
                    plan.blocksOf(trial).stream().map(PlanPrinter::blockLabel).collect(Collectors.joining(", "))
                            + (w.resultBlocks() > 1 ? " (" + w.resultBlocks() + " result blocks each, one per sweep step)" : ""));
        }
        out.printf("%d result blocks from %d distinct trials%n",
                plan.blocks().stream().mapToInt(p -> p.trial().workload().resultBlocks()).sum(), plan.trials().size());
        out.printf("%d trials, %d server starts%n", plan.trials().size(), serverStarts(plan, params.options()));
    }

    /** Engine starts the run needs: one per server configuration, or one per trial with {@code --fresh-server}. */
    static long serverStarts(TrialPlan plan, RunOptions options) {
        return options.freshServer() ? plan.trials().size() : plan.serverStarts();
    }

    private static String blockLabel(ResultBlock block) {
        String simple = block.className().substring(block.className().lastIndexOf('.') + 1) + "." + block.variant();
        return block.paramValues().isEmpty() ? simple : simple + block.paramValues();
    }
}
