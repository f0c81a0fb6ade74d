package io.servebench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class SimValidateCommandTest {

    private static final String CASE = "vllm-qwen3-14b-h100-random-32000-100-burst";

    /**
     * {@code --gpu} runs the cases on another GPU and says so before any figure. The oracle is the hardware's own:
     * the PCIe card reads memory at 2.0 TB/s against the SXM part's 3.35, so the same case decodes more slowly there.
     */
    @Test
    void gpuRunsTheCasesOnAnotherGpuAndSaysItIsADiagnostic() {
        Run sxm = run("sim", "validate", "--case", CASE);
        Run pcie = run("sim", "validate", "--case", CASE, "--gpu", "h100-pcie");

        assertThat(sxm.code()).as(sxm.err()).isZero();
        assertThat(pcie.code()).as(pcie.err()).isZero();
        assertThat(sxm.out()).doesNotContain("Diagnostic");
        assertThat(pcie.out()).startsWith("Diagnostic: every case runs on the twin's NVIDIA H100 PCIe")
                .contains("these figures are not the twin's evidence");
        assertThat(twinTpot(pcie.out())).isGreaterThan(1.3 * twinTpot(sxm.out()));
    }

    @Test
    void gpuWithWriteEvidenceOrAnUnknownIdIsRefusedWithExitCode2(@TempDir Path dir) {
        Run evidence = run("sim", "validate", "--case", CASE, "--gpu", "h100-pcie", "--write-evidence",
                dir.resolve("e.json").toString());
        Run unknown = run("sim", "validate", "--case", CASE, "--gpu", "h999");

        assertThat(evidence.code()).isEqualTo(2);
        assertThat(evidence.err()).contains("drop --write-evidence or --gpu");
        assertThat(dir.resolve("e.json")).doesNotExist();
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("--gpu:").contains("h999");
    }

    /**
     * {@code --server-flag} adds an engine flag to every case and says so before any figure. The oracle is vLLM's own
     * {@code --max-num-seqs}: at most that many sequences in a step, so with one the case's 100 prompts of 32,000 tokens
     * are served one after another, no other prompt's chunk shares a step with a request's decode, and its tokens come
     * at one stream's pace, several times faster than beside the others' prefills.
     */
    @Test
    void serverFlagAddsAnEngineFlagToEveryCaseAndSaysItIsADiagnostic(@TempDir Path dir) {
        Run own = run("sim", "validate", "--case", CASE);
        Run one = run("sim", "validate", "--case", CASE, "--server-flag=--max-num-seqs=1");
        Run evidence = run("sim", "validate", "--case", CASE, "--server-flag=--max-num-seqs=1", "--write-evidence",
                dir.resolve("e.json").toString());

        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).startsWith("Diagnostic: every case runs with --max-num-seqs=1 beside its own engine flags")
                .contains("these figures are not the twin's evidence");
        assertThat(twinTpot(one.out())).isLessThan(twinTpot(own.out()) / 3);
        assertThat(evidence.code()).isEqualTo(2);
        assertThat(evidence.err()).contains("drop --write-evidence or --server-flag");
        assertThat(dir.resolve("e.json")).doesNotExist();
    }

    /** The twin's mean TPOT of the case's row: the second figure of "published / twin (error)" in its TPOT column. */
    private static double twinTpot(String out) {
        Matcher row = Pattern.compile("\\| " + Pattern.quote(CASE) + " \\|([^\\n]*)").matcher(out);
        assertThat(row.find()).as(out).isTrue();
        String tpot = row.group(1).split("\\|")[5];
        Matcher figure = Pattern.compile("[\\d.]+ / ([\\d.]+)").matcher(tpot);
        assertThat(figure.find()).as(tpot).isTrue();
        return Double.parseDouble(figure.group(1));
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private record Run(int code, String out, String err) {
    }
}
