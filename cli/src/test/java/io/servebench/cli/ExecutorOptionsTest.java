package io.servebench.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's executor options: wrong combinations are refused with what to do, exit code 2. */
class ExecutorOptionsTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out + err.toString()};
    }

    @Test
    void anUnknownExecutorAndSlurmOptionsOnALocalRunAreRefused() {
        assertThat(run("--executor", "pbs", "QuickStart")).containsExactly("2", "error: --executor pbs: expected local or"
                + " slurm" + System.lineSeparator());
        assertThat(run("--partition", "gpu", "QuickStart")[1]).contains("--partition, --account, --time, --gpus-per-server"
                + " and --sbatch-arg are for --executor slurm");
        assertThat(run("--executor", "slurm", "--gpus-per-server", "-1", "QuickStart")[1])
                .contains("--gpus-per-server -1: expected 0 or more GPUs");
    }
}
