package io.servebench.sim;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The twin's power: its constants against the H200's measured phases, and its figures against load, drafts and GPU. */
class PowerModelTest {

    private static final long MS = 1_000_000;

    /** The mean watts per phase that power_phases.py printed on the device's H200 ("idle 121.9 W ..."). */
    private static Map<String, Double> measured() throws IOException {
        Map<String, Double> watts = new HashMap<>();
        try (InputStream in = PowerModelTest.class.getResourceAsStream("/power/h200-power-phases.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.trim().split("\\s+");
                watts.put(f[0], Double.parseDouble(f[1]));
            }
        }
        return watts;
    }

    @Test
    void anH200IdlesComputesAndStreamsAtThePowerMeasuredOnOne() throws IOException {
        Map<String, Double> phases = measured();
        PowerModel h200 = PowerModel.of(GpuProfile.named("h200"));
        assertThat(h200.watts(0, 0)).isCloseTo(phases.get("idle"), within(0.05));
        assertThat(h200.watts(1, 0)).isCloseTo(phases.get("compute"), within(0.05));
        assertThat(h200.watts(0, 1)).isCloseTo(phases.get("memory"), within(0.05));
        // never past the board's limit
        assertThat(h200.watts(1, 1)).isEqualTo(700);
        // a 400 W GPU idles and rises in the same proportion
        assertThat(PowerModel.of(GpuProfile.named("a100")).watts(0, 0)).isCloseTo(121.9 * 400 / 700, within(1e-9));
    }

    /** Mean power and energy per output token of {@code n} requests of 200 prompt and 200 output tokens at {@code rate}. */
    private static double[] run(SimParams settings, double rate, int n) {
        VirtualEngine engine = VirtualEngine.of(settings, 7);
        String prompt = "w ".repeat(200).strip();
        byte[] body = ("{\"model\":\"" + settings.model().name() + "\",\"prompt\":\"" + prompt
                + "\",\"max_tokens\":200,\"min_tokens\":200,\"ignore_eos\":true,\"stream\":true}")
                .getBytes(StandardCharsets.UTF_8);
        long gap = Math.round(1e9 / rate);
        for (int i = 0; i < n; i++) {
            engine.submit("r" + i, 1_000 * MS + i * gap, false, body);
        }
        List<GroundTruth> done = engine.runToEnd();
        long end = done.stream().mapToLong(t -> t.events().get(t.events().size() - 1).dueNs()).max().orElseThrow();
        List<PowerMeter.Reading> readings = engine.power().readings(1_000 * MS, end, 100 * MS);
        double joules = readings.get(readings.size() - 1).joules();
        double seconds = (end - 1_000 * MS) / 1e9;
        return new double[] {joules / seconds, joules / (200.0 * n)};
    }

    /**
     * A step spent in kernels at their floors keeps the GPU busy, as NVML's utilisation counts any kernel running, but
     * draws idle power: a few SMs at work, not the memory system streaming.
     */
    @Test
    void kernelsAtTheirFloorsAreBusyButDrawIdlePower() {
        GpuProfile h200 = GpuProfile.named("h200");
        PowerMeter meter = new PowerMeter(h200, 1);
        meter.record(0, 10 * MS, new StepCostModel.Step(10 * MS, 0, 0, 10 * MS));
        PowerMeter.Reading floors = meter.readings(0, 10 * MS, 10 * MS).get(1);
        assertThat(floors.utilization()).isCloseTo(100.0, within(1e-9));
        assertThat(floors.watts()).isCloseTo(PowerModel.of(h200).idleWatts(), within(1e-6));
        PowerMeter streaming = new PowerMeter(h200, 1);
        streaming.record(0, 10 * MS, new StepCostModel.Step(10 * MS, 0, 10 * MS, 0));
        assertThat(streaming.readings(0, 10 * MS, 10 * MS).get(1).watts()).isGreaterThan(floors.watts() + 400);
    }

    @Test
    void moreLoadDrawsMorePowerAndSpendsLessEnergyPerToken() {
        SimParams h100 = SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", List.of("--max-model-len=4096"));
        // one request every 5 s, each done in about 1.4 s: the GPU idles most of the time
        double[] light = run(h100, 0.2, 10);
        double[] heavy = run(h100, 16, 200);
        assertThat(heavy[0]).isGreaterThan(light[0]);
        // idle power spread over few tokens: a lightly loaded GPU spends more per token
        assertThat(heavy[1]).isLessThan(light[1] / 2);
        // between idle and the limit, all the time
        assertThat(light[0]).isBetween(121.9, 700.0);
        assertThat(heavy[0]).isBetween(121.9, 700.0);
    }

    @Test
    void draftsThatAreAcceptedSaveEnergyPerTokenAtLowLoad() {
        List<String> base = List.of("--max-model-len=4096");
        SimParams plain = SimParams.fromFlags(SimDialect.SIM, "Qwen/Qwen3.5-9B", base);
        SimParams mtp = SimParams.fromFlags(SimDialect.SIM, "Qwen/Qwen3.5-9B", List.of("--max-model-len=4096",
                "--speculative-config={\"method\":\"mtp\",\"num_speculative_tokens\":2}", "--sim-acceptance-rate=0.8"));
        assertThat(run(mtp, 1, 30)[1]).isLessThan(run(plain, 1, 30)[1]);
    }

    @Test
    void theSameLoadOnAnH200DrawsAsMuchPowerButFinishesSoonerThanOnAnH100() {
        List<String> flags = List.of("--max-model-len=4096");
        double[] h100 = run(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", flags, GpuProfile.named("h100")), 16, 200);
        double[] a100 = run(SimParams.fromFlags(SimDialect.VLLM, "Qwen/Qwen3-8B", flags, GpuProfile.named("a100")), 16, 200);
        // the A100's board is 400 W: less power, and each token takes longer
        assertThat(a100[0]).isLessThan(h100[0]);
        assertThat(a100[0]).isLessThanOrEqualTo(400);
    }
}
