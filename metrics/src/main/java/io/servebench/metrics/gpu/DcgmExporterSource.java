package io.servebench.metrics.gpu;

import io.servebench.metrics.PrometheusScraper;
import io.servebench.metrics.PrometheusSnapshot;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A DCGM exporter's {@code /metrics} page (NVIDIA's {@code dcgm-exporter}, port 9400 by default), read every interval:
 * the GPUs of a machine ServeBench does not run on (an {@code endpoint} engine), or of one where DCGM owns the GPUs.
 * Fields by the names of the exporter's default counters ({@code etc/default-counters.csv}), one line per GPU told
 * apart by its {@code gpu} label (the first line of a GPU: the exporter repeats a device's values on each of its MIG
 * instances, labelled {@code GPU_I_ID}, and on each pod sharing it), power in W, the energy counter in mJ, utilisation in %, framebuffer used in MiB,
 * clocks in MHz, temperature in °C and NVML's clock-event bit mask under its DCGM 3.3 name or the older one.
 *
 * <p>The exporter refreshes its values every collect interval ({@code dcgm-exporter -c}, 30 s by default), whatever
 * the harness's interval: between two refreshes readings repeat, so a trial's energy is right only to one collect
 * interval at each end of its window unless the exporter runs with {@code -c} at or below {@code --gpu-interval}.
 */
final class DcgmExporterSource implements TelemetrySource {

    static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
    static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
    static final String GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL";
    static final String MEMORY_UTIL = "DCGM_FI_DEV_MEM_COPY_UTIL";
    static final String MEMORY_USED = "DCGM_FI_DEV_FB_USED";
    static final String SM_CLOCK = "DCGM_FI_DEV_SM_CLOCK";
    static final String MEMORY_CLOCK = "DCGM_FI_DEV_MEM_CLOCK";
    static final String TEMPERATURE = "DCGM_FI_DEV_GPU_TEMP";
    static final String REASONS = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS";
    static final String OLD_REASONS = "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS";

    private final URI url;
    private final PrometheusScraper scraper = new PrometheusScraper();

    /** @param url the exporter's metrics page, e.g. {@code http://gpu-host:9400/metrics} */
    DcgmExporterSource(URI url) {
        this.url = url;
    }

    @Override
    public String name() {
        return "DCGM exporter " + url;
    }

    /**
     * What a reader must know of the page's readings: the exporter's default counters
     * ({@code etc/default-counters.csv}, dcgm-exporter 4.5.3-4.8.2) have no clock-event reasons, so time throttled is
     * unknown unless its counters file adds them; empty when the page has them (or cannot be read).
     */
    Optional<String> note() {
        Optional<PrometheusSnapshot> page = scraper.scrapeFirstPerLabel(url, "gpu").snapshot();
        if (page.isEmpty() || !page.get().byLabel(REASONS).isEmpty() || !page.get().byLabel(OLD_REASONS).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(url + " has no " + REASONS + " line (not among the exporter's default counters): time"
                + " throttled and its reasons are unknown; add " + REASONS + " to the exporter's counters file (-f) for them");
    }

    /** Why the page cannot be read now, or empty when it can and has GPU power lines. */
    Optional<String> problem() {
        PrometheusScraper.Result r = scraper.scrapeFirstPerLabel(url, "gpu");
        if (r.snapshot().isEmpty()) {
            return Optional.of(r.problem());
        }
        if (r.snapshot().get().byLabel(POWER).isEmpty()) {
            return Optional.of(url + " has no " + POWER + " line: not a DCGM exporter's page, or power is not among its "
                    + "counters");
        }
        return Optional.empty();
    }

    /**
     * The readings of one page (parsed keeping the {@code gpu} label apart), one per GPU among {@code gpus} (every GPU on the page when empty) that has a power line,
     * all timed {@code nanos}.
     */
    static List<GpuSample> samples(PrometheusSnapshot s, long nanos, List<Integer> gpus) {
        List<GpuSample> out = new ArrayList<>();
        for (String label : new TreeSet<>(s.byLabel(POWER).keySet())) {
            int gpu;
            try {
                gpu = Integer.parseInt(label);
            } catch (NumberFormatException e) {
                continue;
            }
            if (!gpus.isEmpty() && !gpus.contains(gpu)) {
                continue;
            }
            Double reasons = s.byLabel(REASONS).getOrDefault(label, s.byLabel(OLD_REASONS).get(label));
            out.add(new GpuSample(nanos, gpu, field(s, POWER, label), field(s, ENERGY, label) / 1e3,
                    field(s, GPU_UTIL, label), field(s, MEMORY_UTIL, label), field(s, MEMORY_USED, label) * 1024 * 1024,
                    field(s, SM_CLOCK, label), field(s, MEMORY_CLOCK, label), field(s, TEMPERATURE, label),
                    reasons == null ? GpuSample.UNKNOWN_REASONS : reasons.longValue()));
        }
        return out;
    }

    private static double field(PrometheusSnapshot s, String name, String gpu) {
        Double v = s.byLabel(name).get(gpu);
        return v == null ? Double.NaN : v;
    }

    @Override
    public AutoCloseable start(List<Integer> gpus, Duration interval, Consumer<GpuSample> sink) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "DCGM exporter reader");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            long nanos = System.nanoTime();
            // a page that does not answer this time leaves a gap, as a GPU that does not answer NVML does
            scraper.scrapeFirstPerLabel(url, "gpu").snapshot().ifPresent(page -> samples(page, nanos, gpus).forEach(sink));
        }, 0, Math.max(1, interval.toMillis()), TimeUnit.MILLISECONDS);
        return () -> {
            timer.shutdown();
            timer.awaitTermination(5, TimeUnit.SECONDS);
        };
    }
}
