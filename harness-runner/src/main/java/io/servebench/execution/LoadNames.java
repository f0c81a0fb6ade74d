package io.servebench.execution;

import io.servebench.load.RequestRecordWriter;
import io.servebench.results.BlockResult;
import io.servebench.results.IncompleteRepetition;

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

    /**
     * Renames the requests file of the load {@code name} (and its GPU telemetry, if any) so that it names the load as
     * incomplete ({@code requests/<name>.interrupted.jsonl.gz}, {@code .failed}; {@code .interrupted-2} for a second
     * attempt), where a later run of the same load cannot write over it.
     *
     * @return the requests file's new path relative to {@code outputDir}; empty when the load wrote none
     */
    static Optional<String> keepIncomplete(Path outputDir, String name, IncompleteRepetition.Kind kind)
            throws java.io.IOException {
        Path file = RequestRecordWriter.trialFile(outputDir, name);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String suffix = kind.name().toLowerCase(java.util.Locale.ROOT);
        String kept = name + "." + suffix;
        for (int attempt = 2; Files.exists(RequestRecordWriter.trialFile(outputDir, kept)); attempt++) {
            kept = name + "." + suffix + "-" + attempt;
        }
        Files.move(file, RequestRecordWriter.trialFile(outputDir, kept));
        Path telemetry = outputDir.resolve("telemetry").resolve(name + ".csv.gz");
        if (Files.exists(telemetry)) {
            Files.move(telemetry, telemetry.resolveSibling(kept + ".csv.gz"));
        }
        return Optional.of(outputDir.relativize(RequestRecordWriter.trialFile(outputDir, kept)).toString());
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
