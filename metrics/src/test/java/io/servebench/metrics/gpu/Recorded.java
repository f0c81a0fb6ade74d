package io.servebench.metrics.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Readings recorded on the device machine (one H200, driver 580.159.04, 2026-12-02) by
 * {@code scripts/gpu-telemetry/record.py}: 2.4 s idle, 3.6 s of 4096² and 3.6 s of 16384² bf16 matrix products,
 * 2.4 s idle, read by NVML through ctypes and by {@code nvidia-smi -lms 100} at the same time. The machine's clock
 * is UTC.
 */
final class Recorded {

    static final String DIR = "/gpu-telemetry/h200-driver-580.159/";

    private Recorded() {
    }

    static List<String> lines(String file) {
        try (InputStream in = Recorded.class.getResourceAsStream(DIR + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The nvidia-smi CSV through the parser under test, timed by its timestamps (ns since the epoch). */
    static List<GpuSample> nvidiaSmi() {
        List<String> lines = lines("nvidia-smi.csv");
        NvidiaSmiCsv csv = new NvidiaSmiCsv(lines.get(0), ZoneOffset.UTC);
        List<GpuSample> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            csv.parse(line, 0, millis -> millis * 1_000_000).ifPresent(out::add);
        }
        return out;
    }

    /**
     * The NVML readings, read here column by column as the recorder wrote them (time_s, index, power_mw, energy_mj,
     * util_gpu, util_mem, mem_used_b, mem_total_b, sm_mhz, mem_mhz, temp_c, reasons), ns since the epoch.
     */
    static List<GpuSample> nvml() {
        List<GpuSample> out = new ArrayList<>();
        for (String line : lines("nvml.csv").subList(1, lines("nvml.csv").size())) {
            String[] v = line.split(",");
            out.add(new GpuSample(Math.round(Double.parseDouble(v[0]) * 1e9), Integer.parseInt(v[1]),
                    Long.parseLong(v[2]) / 1e3, Long.parseLong(v[3]) / 1e3, Double.parseDouble(v[4]),
                    Double.parseDouble(v[5]), Double.parseDouble(v[6]), Double.parseDouble(v[8]), Double.parseDouble(v[9]),
                    Double.parseDouble(v[10]), Long.parseLong(v[11].substring(2), 16)));
        }
        return out;
    }
}
