package io.servebench.metrics.gpu;

import com.sun.net.httpserver.HttpServer;
import io.servebench.metrics.PrometheusSnapshot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DcgmExporterSourceTest {

    private static String recordedPage() throws IOException {
        try (InputStream in = DcgmExporterSourceTest.class.getResourceAsStream("/gpu-telemetry/dcgm-exporter-t4/metrics.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The values are read off the recorded page by eye; mJ become J and MiB bytes. */
    @Test
    void readsARecordedExporterPageInItsUnits() throws IOException {
        List<GpuSample> samples = DcgmExporterSource.samples(PrometheusSnapshot.parseFirstPerLabel(recordedPage(), "gpu"), 42, List.of());
        assertThat(samples).hasSize(1);
        GpuSample s = samples.get(0);
        assertThat(s.nanos()).isEqualTo(42);
        assertThat(s.gpu()).isZero();
        assertThat(s.watts()).isEqualTo(8.969);
        assertThat(s.energyJoules()).isEqualTo(128996.013);
        assertThat(s.gpuUtilization()).isZero();
        assertThat(s.memoryUtilization()).isZero();
        assertThat(s.memoryUsedBytes()).isZero();
        assertThat(s.smClockMhz()).isEqualTo(300);
        assertThat(s.memoryClockMhz()).isEqualTo(405);
        assertThat(s.temperatureC()).isEqualTo(25);
        // this exporter's counters did not include the clock-event reasons
        assertThat(s.clockEventReasons()).isEqualTo(GpuSample.UNKNOWN_REASONS);
    }

    /**
     * A page of two GPUs, written for this test in the exporter's format: each GPU's lines are its own, a GPU outside
     * the chosen ones is left out, and the reasons are read under the DCGM 3.3 name and the older one.
     */
    @Test
    void tellsGpusApartByTheirLabelAndKeepsTheChosenOnes() {
        String page = String.join("\n",
                "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",modelName=\"NVIDIA H200\"} 612.5",
                "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\",modelName=\"NVIDIA H200\"} 118.25",
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-a\"} 5000000",
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"1\",UUID=\"GPU-b\"} 7000000",
                "DCGM_FI_DEV_FB_USED{gpu=\"1\",UUID=\"GPU-b\"} 2",
                "DCGM_FI_DEV_CLOCKS_EVENT_REASONS{gpu=\"0\",UUID=\"GPU-a\"} 4",
                "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{gpu=\"1\",UUID=\"GPU-b\"} 1", "");
        PrometheusSnapshot snapshot = PrometheusSnapshot.parseFirstPerLabel(page, "gpu");
        List<GpuSample> both = DcgmExporterSource.samples(snapshot, 0, List.of());
        assertThat(both).extracting(GpuSample::gpu).containsExactly(0, 1);
        assertThat(both).extracting(GpuSample::watts).containsExactly(612.5, 118.25);
        assertThat(both).extracting(GpuSample::energyJoules).containsExactly(5000.0, 7000.0);
        assertThat(both.get(1).memoryUsedBytes()).isEqualTo(2 * 1024 * 1024);
        assertThat(both.get(0).memoryUsedBytes()).isNaN();
        assertThat(ClockEventReason.in(both.get(0).clockEventReasons())).containsExactly(ClockEventReason.SW_POWER_CAP);
        assertThat(ClockEventReason.in(both.get(1).clockEventReasons())).containsExactly(ClockEventReason.GPU_IDLE);
        assertThat(DcgmExporterSource.samples(snapshot, 0, List.of(1))).extracting(GpuSample::gpu).containsExactly(1);
    }

    /**
     * End to end over HTTP: an exporter stand-in whose energy counter grows as a GPU drawing 250 W would make it grow;
     * the energy of a window follows the counter, not the (deliberately wrong, 100 W) power line.
     */
    @Test
    void samplesAnExporterOverHttpAndTakesEnergyFromItsCounter() throws Exception {
        long started = System.nanoTime();
        // 250 W = 250 mJ per ms
        HttpServer server = exporter(() -> "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 100\nDCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\"} "
                + (System.nanoTime() - started) / 4_000 + "\n");
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
            GpuTelemetry dcgm = GpuTelemetry.choose(new TelemetryParams("auto", Duration.ofMillis(50), List.of(),
                    OptionalDouble.empty(), url));
            assertThat(dcgm.source()).contains("DCGM exporter " + url);
            long from = System.nanoTime();
            GpuTelemetry.Recording r = dcgm.record(List.of(0), Duration.ofMillis(50)).orElseThrow();
            Thread.sleep(1_200);
            long to = System.nanoTime();
            r.close();
            GpuEnergy e = GpuEnergy.of(r.samples(), from + 200_000_000L, to - 200_000_000L).orElseThrow();
            assertThat(e.fromCounter()).isTrue();
            // the sample time is taken before the request: the page's counter is up to one reply's latency later
            assertThat(e.joules() / e.seconds()).isCloseTo(250, within(15.0));
        } finally {
            server.stop(0);
        }
    }

    /**
     * dcgm-exporter writes a GPU's fields once per MIG instance, with {@code GPU_I_PROFILE} and {@code GPU_I_ID} added
     * ({@code internal/pkg/rendermetrics/render_metrics.go}, line 47, NVIDIA/dcgm-exporter d5e5f51), and once per pod
     * sharing it: the device's power and energy are one GPU's, not their sum.
     */
    @Test
    void aGpuWrittenOnSeveralLinesIsOneGpuNotTheirSum() {
        String page = String.join("\n",
                "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",pci_bus_id=\"00000000:1B:00.0\",device=\"nvidia0\","
                        + "modelName=\"NVIDIA H200\",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"1\"} 400",
                "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",pci_bus_id=\"00000000:1B:00.0\",device=\"nvidia0\","
                        + "modelName=\"NVIDIA H200\",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"2\"} 400",
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-a\",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"1\"} 9000",
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-a\",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"2\"} 9000",
                "");
        List<GpuSample> samples = DcgmExporterSource.samples(PrometheusSnapshot.parseFirstPerLabel(page, "gpu"), 0, List.of());
        assertThat(samples).singleElement().satisfies(s -> {
            assertThat(s.watts()).isEqualTo(400);
            assertThat(s.energyJoules()).isEqualTo(9);
            // no CLOCKS_EVENT_REASONS line: unknown, not "none"
            assertThat(s.clockEventReasons()).isEqualTo(GpuSample.UNKNOWN_REASONS);
        });
    }

    @Test
    void anExporterWithoutClockEventReasonsIsUsedAndSaysWhatItCannotTell() throws Exception {
        HttpServer server = exporter(() -> "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 100\n");
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
            GpuTelemetry telemetry = GpuTelemetry.choose(new TelemetryParams("dcgm", Duration.ofMillis(100), List.of(),
                    OptionalDouble.empty(), url));
            assertThat(telemetry.note()).hasValue(url + " has no DCGM_FI_DEV_CLOCKS_EVENT_REASONS line (not among the"
                    + " exporter's default counters): time throttled and its reasons are unknown; add"
                    + " DCGM_FI_DEV_CLOCKS_EVENT_REASONS to the exporter's counters file (-f) for them");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anExporterThatDoesNotAnswerIsNamedWithWhatWasExpected() {
        TelemetryParams params = new TelemetryParams("dcgm", Duration.ofMillis(100), List.of(), OptionalDouble.empty(),
                "http://127.0.0.1:9/metrics");
        assertThatThrownBy(() -> GpuTelemetry.choose(params)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--gpu-telemetry-url http://127.0.0.1:9/metrics: GET http://127.0.0.1:9/metrics failed")
                .hasMessageEndingWith("expected a running dcgm-exporter's page, e.g. http://gpu-host:9400/metrics");
    }

    @Test
    void aUrlNeedsTheDcgmSourceAndTheDcgmSourceAUrl() {
        assertThatThrownBy(() -> new TelemetryParams("dcgm", Duration.ofMillis(100), List.of(), OptionalDouble.empty(), ""))
                .hasMessage("--gpu-telemetry dcgm needs the exporter's page: expected --gpu-telemetry-url, e.g. "
                        + "--gpu-telemetry-url http://gpu-host:9400/metrics");
        assertThatThrownBy(() -> new TelemetryParams("nvml", Duration.ofMillis(100), List.of(), OptionalDouble.empty(),
                "http://h:9400/metrics")).hasMessage("--gpu-telemetry-url http://h:9400/metrics reads a DCGM exporter, "
                + "but --gpu-telemetry is nvml; expected --gpu-telemetry dcgm or auto with a URL");
        assertThatThrownBy(() -> new TelemetryParams("auto", Duration.ofMillis(100), List.of(), OptionalDouble.empty(),
                "gpu-host:9400")).hasMessageContaining("is not an http(s) URL with a host");
        assertThat(new TelemetryParams("auto", Duration.ofMillis(100), List.of(), OptionalDouble.empty(),
                "http://h:9400/metrics").source()).isEqualTo("dcgm");
    }

    /** A stand-in exporter serving {@code page}'s text at {@code /metrics}, started. */
    private static HttpServer exporter(java.util.function.Supplier<String> page) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = page.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }
}
