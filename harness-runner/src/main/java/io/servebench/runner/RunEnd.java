package io.servebench.runner;

import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;
import io.servebench.results.RunResult;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's last lines on the console, which say what the reports say: how many trials completed; each failed trial
 * with why; what an interruption kept (the complete repetitions, the cut-short one and where its records are); on the
 * simulated engine, that its figures are a rehearsal, with its error bars; and, when anything is left to do, the
 * command that continues the run.
 */
final class RunEnd {

    private RunEnd() {
    }

    /**
     * @param interruptedBy what stopped the run ({@code SIGINT}); empty when nothing did
     * @param reports       the line naming the reports
     */
    static void print(PrintWriter out, RunResult result, Optional<String> interruptedBy, String reports, Path dir) {
        // one entry per trial: a trial serves several blocks, which share its state
        Map<String, BlockResult> trials = new LinkedHashMap<>();
        result.blocks().forEach(b -> trials.putIfAbsent(b.trialId(), b));
        long complete = trials.values().stream().filter(BlockResult::succeeded).count();
        List<BlockResult> failed = of(trials, BlockResult.State.FAILED);
        List<BlockResult> interrupted = of(trials, BlockResult.State.INTERRUPTED);
        List<BlockResult> notRun = of(trials, BlockResult.State.NOT_RUN);
        for (BlockResult b : failed) {
            out.printf("Failed: %s: %s%n", b.trialId(), b.failure().lines().findFirst().orElse(""));
        }
        if (interruptedBy.isPresent() || !interrupted.isEmpty()) {
            out.printf("Interrupted%s: %d of %d trials complete; %d cut short, their complete repetitions kept; %d not"
                    + " run%n", interruptedBy.map(c -> " (" + c + ")").orElse(""), complete, trials.size(),
                    interrupted.size(), notRun.size());
            for (BlockResult b : interrupted) {
                out.printf("  %s: %d repetition%s complete%s%n", b.trialId(), b.repetitions().size(),
                        b.repetitions().size() == 1 ? "" : "s", b.incomplete().stream()
                                .filter(r -> r.kind() == IncompleteRepetition.Kind.INTERRUPTED).reduce((x, y) -> y)
                                .map(r -> "; repetition " + r.number() + " cut short (" + r.reason() + ")"
                                        + (r.records() == null ? "" : ", its records in " + r.records()))
                                .orElse(""));
            }
        }
        // on the simulated engine, how far its figures go, where a user looks last: not everyone opens the summary
        io.servebench.reports.ResultFormats.rehearsal(result).forEach(out::println);
        out.printf("Done: %d of %d trials complete%s. %s%n", complete, trials.size(),
                failed.isEmpty() ? "" : ", " + failed.size() + " failed", reports);
        if (complete + failed.size() < trials.size()) {
            out.printf("Continue with: %s%n", RunCommandLine.resume(dir));
        } else if (!failed.isEmpty()) {
            // a failure that comes of the set-up (a context too short, a flag the engine refuses) fails again as it was
            out.printf("Run the failed trial%s again, once what failed %s is mended: %s%n", failed.size() == 1 ? "" : "s",
                    failed.size() == 1 ? "it" : "them", RunCommandLine.resume(dir));
        }
    }

    private static List<BlockResult> of(Map<String, BlockResult> trials, BlockResult.State state) {
        return trials.values().stream().filter(b -> b.state() == state).toList();
    }
}
