package io.servebench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

// alone: it counts every process this JVM started, and a check warns of the CPU share other tests take
@Isolated
class LoadCheckCommandTest {

    private record Result(int exitCode, String out, String err) {
        String lastLine() {
            String[] lines = out.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    private static Result execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void printsTheFiguresAndEndsWithAKeyValueSummary() {
        Result r = execute("loadcheck", "--rate", "40", "--tokens", "5", "--duration", "1", "--warmup", "0",
                "--ttft-ms", "5", "--gap-ms", "5");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("schedule lag", "TTFT error", "ITL error", "events/s", "client CPU",
                "(user ", "connections     ", "limits          open files ");
        Map<String, String> summary = Arrays.stream(r.lastLine().split(" "))
                .map(kv -> kv.split("=", 2)).collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        assertThat(summary).containsEntry("rate", "40.000").containsEntry("tokens", "5")
                .containsEntry("requests", "40").containsEntry("failed", "0").containsEntry("unmatched", "0")
                .containsKeys("achieved_rate", "lag_p99_ms", "ttft_err_p99_ms", "itl_err_p99_ms", "events_per_s",
                        "peak_streams", "client_cpu_us_per_event", "max_events_per_read")
                .containsEntry("connect_failures", "0");
        // this JVM runs other test classes beside the check: their collections and CPU may be warned of, nothing else
        assertThat(r.out().lines().filter(l -> l.startsWith("WARNING"))
                .filter(l -> !l.contains("collector") && !l.contains("busy"))).as(r.out()).isEmpty();
        assertThat(Integer.parseInt(summary.get("warnings"))).isEqualTo(r.out().lines().filter(l -> l.startsWith("WARNING")).count());
        assertThat(Double.parseDouble(summary.get("achieved_rate"))).isPositive();
        assertThat(Double.parseDouble(summary.get("events_per_s"))).isPositive();
        assertThat(Double.parseDouble(summary.get("client_user_us_per_event")))
                .isNotNegative().isLessThanOrEqualTo(Double.parseDouble(summary.get("client_cpu_us_per_event")));
    }

    @Test
    void splitRunsTheTruthServerInAProcessOfItsOwnAndComparesEveryRequest() {
        long before = ProcessHandle.current().descendants().count();
        Result r = execute("loadcheck", "--rate", "40", "--tokens", "5", "--duration", "1", "--warmup-seconds", "0",
                "--ttft-ms", "5", "--gap-ms", "5", "--split");

        assertThat(r.exitCode()).as(r.err()).isZero();
        Map<String, String> summary = Arrays.stream(r.lastLine().split(" "))
                .map(kv -> kv.split("=", 2)).collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        // every record matched with the other process's truth, on the one clock of the host
        assertThat(summary).containsEntry("requests", "40").containsEntry("failed", "0").containsEntry("unmatched", "0");
        // the server stamps a write when the call returns, and the client in another process may read the bytes first
        assertThat(Double.parseDouble(summary.get("ttft_err_p50_ms"))).isBetween(-1.0, 50.0);
        assertThat(Double.parseDouble(summary.get("server_cpu_us_per_event"))).isPositive();
        assertThat(ProcessHandle.current().descendants().count()).as("the server's process ended with the check")
                .isEqualTo(before);
    }

    @Test
    void splitAloneIsOneTruthProcessAndTakesACountBeforeTheNextOption() {
        java.util.function.Function<String[], Integer> split = args -> {
            LoadCheckCommand c = new LoadCheckCommand();
            new picocli.CommandLine(c).parseArgs(args);
            return c.split;
        };
        assertThat(split.apply(new String[] {})).isZero();
        assertThat(split.apply(new String[] {"--split"})).isEqualTo(1);
        assertThat(split.apply(new String[] {"--split", "--load-workers", "4"})).isEqualTo(1);
        assertThat(split.apply(new String[] {"--split", "3", "--load-workers", "4"})).isEqualTo(3);
    }

    @Test
    void aBadValueIsOneLineAndExitCode2() {
        Result r = execute("loadcheck", "--tokens", "0");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("error: --tokens must be >= 1, got 0");
    }
}
