package io.servebench.execution;

import io.servebench.load.RequestRecordWriter;
import io.servebench.results.BlockResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What each load of a trial is called: its requests file ({@code requests/<name>.jsonl.gz}), its telemetry and its
 * progress line. {@code <trial>}, then {@code -<sweep step>} for a sweep's step, then {@code -r<n>} when the trial runs
 * (or may run) more than one repetition.
 */
public final class LoadNames {

    private LoadNames() {
    }

    /**
     * @param sweepStep  the sweep step's name ({@code s3-constant}), {@code null} for a load that is no sweep step
     * @param repetition the repetition, from 1
     * @param numbered   whether repetitions are numbered: the trial runs, or may run, more than one
     */
    static String of(String trialId, String sweepStep, int repetition, boolean numbered) {
        return trialId + (sweepStep == null ? "" : "-" + sweepStep) + (numbered ? "-r" + repetition : "");
    }

    /** The requests file of {@code block}'s first repetition in {@code outputDir}, if one is there. */
    public static Optional<Path> firstRequests(Path outputDir, BlockResult block) throws java.io.IOException {
        String step = block.params().get(BlockResult.SWEEP_STEP);
        for (boolean numbered : new boolean[] {false, true}) {
            Path file = RequestRecordWriter.trialFile(outputDir, of(block.trialId(), step, 1, numbered));
            if (Files.exists(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }
}
