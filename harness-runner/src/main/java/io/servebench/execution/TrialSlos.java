package io.servebench.execution;

import io.servebench.measure.SloParams;
import io.servebench.plan.ResultBlock;
import io.servebench.plan.Trial;
import io.servebench.plan.TrialPlan;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** The SLOs a trial's goodput is computed for. */
final class TrialSlos {

    private TrialSlos() {
    }

    /**
     * The trial's first result block's {@code @Slo} under the command line's {@code --slo}. A trial measured once for
     * blocks of different studies uses the first block's, and says so on {@code out}.
     *
     */
    static SloParams of(Trial trial, TrialPlan plan, SloParams commandLine, PrintWriter out) {
        List<SloParams> declared = new ArrayList<>();
        for (ResultBlock block : plan.blocksOf(trial)) {
            declared.add(block.slo().overriddenBy(commandLine));
        }
        if (declared.stream().distinct().count() > 1) {
            out.printf("  note: %s serves blocks with different SLOs %s; goodput uses the first, %s%n", trial.id(),
                    declared.stream().distinct().toList(), declared.get(0));
        }
        return declared.isEmpty() ? commandLine : declared.get(0);
    }
}
