package io.servebench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --sim-acceptance-rate} gives a study rehearsed on the simulated engine the draft acceptance its user measured:
 * a vLLM study with the MTP layer drafting three tokens decodes faster the more its drafts are accepted, and the run's
 * recorded command line repeats the option.
 */
class SimAcceptanceOptionTest {

    private static final List<String> RUN = List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3.5-9B", "--flags",
            "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":3}", "--rate", "1", "--requests", "20",
            "--simulate=virtual");

    private static int main(StringWriter out, List<String> args) {
        return Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(out, true));
    }

    private static double meanTpot(Path run) throws Exception {
        return new ObjectMapper().readTree(run.resolve("results.json").toFile()).get(0).path("secondaryMetrics")
                .path("·tpot.mean").path("score").asDouble();
    }

    @Test
    void aStudyRehearsedWithItsOwnAcceptanceDecodesAsItsDraftsAreAccepted(@TempDir Path dir) throws Exception {
        StringWriter console = new StringWriter();
        List<String> byDefault = new ArrayList<>(RUN);
        byDefault.addAll(List.of("-o", dir.resolve("default").toString()));
        assertThat(main(console, byDefault)).as(console.toString()).isZero();
        List<String> accepted = new ArrayList<>(RUN);
        accepted.addAll(List.of("--sim-acceptance-rate", "0.9,0.8,0.7", "-o", dir.resolve("accepted").toString()));
        assertThat(main(console, accepted)).as(console.toString()).isZero();
        // the default (0.204 a position) accepts fewer than one draft token a step; 0.9, 0.8, 0.7 about two
        assertThat(meanTpot(dir.resolve("accepted"))).isLessThan(meanTpot(dir.resolve("default")) * 0.8);
        assertThat(Files.readString(dir.resolve("accepted").resolve("summary.md")))
                .contains("--sim-acceptance-rate 0.9,0.8,0.7");
    }

    @Test
    void anAcceptanceWithoutSimulateOrOutOfRangeIsRefusedNamingIt(@TempDir Path dir) {
        StringWriter real = new StringWriter();
        assertThat(main(real, List.of("run", "--engine", "vllm", "--model", "Qwen/Qwen3.5-9B", "--rate", "1",
                "--sim-acceptance-rate", "0.5", "-o", dir.resolve("real").toString()))).isEqualTo(2);
        assertThat(real.toString()).contains("--sim-acceptance-rate 0.5 needs --simulate");
        StringWriter bad = new StringWriter();
        List<String> args = new ArrayList<>(RUN);
        args.addAll(List.of("--sim-acceptance-rate", "0.5,1.5", "-o", dir.resolve("bad").toString()));
        assertThat(main(bad, args)).isEqualTo(2);
        assertThat(bad.toString()).contains("--sim-acceptance-rate: expected a probability in [0, 1], or one per draft"
                + " position separated by commas");
    }
}
