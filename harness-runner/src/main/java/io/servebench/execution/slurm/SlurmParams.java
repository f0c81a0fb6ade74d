package io.servebench.execution.slurm;

import java.util.List;
import java.util.Objects;

/**
 * How a study's server configurations become SLURM jobs ({@code --executor slurm}): one job per server
 * configuration, its trials back to back inside it, each job running ServeBench as a worker on the node it got.
 *
 * @param partition  {@code sbatch --partition}, {@code null} for the cluster's default
 * @param account    {@code sbatch --account}, {@code null} for none
 * @param timeLimit  {@code sbatch --time} ({@code HH:MM:SS}, {@code D-HH:MM}, ...), {@code null} for the partition's
 * @param gpus       {@code sbatch --gpus} per server configuration, 0 for none asked
 * @param sbatchArgs further {@code sbatch} arguments, one word each, given before the job script
 */
public record SlurmParams(String partition, String account, String timeLimit, int gpus, List<String> sbatchArgs) {

    public SlurmParams {
        sbatchArgs = List.copyOf(sbatchArgs);
        if (gpus < 0) {
            throw new IllegalArgumentException("--gpus-per-server " + gpus + ": expected 0 or more GPUs");
        }
        for (String arg : sbatchArgs) {
            Objects.requireNonNull(arg, "sbatch argument");
        }
    }

    /** The {@code sbatch} options these parameters ask for, one word each. */
    List<String> sbatchOptions() {
        List<String> options = new java.util.ArrayList<>();
        if (partition != null) {
            options.add("--partition=" + partition);
        }
        if (account != null) {
            options.add("--account=" + account);
        }
        if (timeLimit != null) {
            options.add("--time=" + timeLimit);
        }
        if (gpus > 0) {
            options.add("--gpus=" + gpus);
        }
        options.addAll(sbatchArgs);
        return options;
    }
}
