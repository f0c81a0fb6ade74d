/**
 * The SLURM executor ({@code --executor slurm}): one job per server configuration, submitted with {@code sbatch},
 * followed with {@code squeue}/{@code scontrol}, cancelled with {@code scancel}; each job runs a
 * {@link io.servebench.execution.slurm.SlurmWorker} on the {@link io.servebench.execution.slurm.SlurmJob} its
 * coordinator wrote, and journals into the shared run folder.
 */
package io.servebench.execution.slurm;
