package io.servebench.metrics.gpu;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * NVML, the library {@code nvidia-smi} and DCGM read, through JNA: power, the driver's energy counter (mJ since the
 * driver loaded), utilisation, memory, clocks, temperature and clock-event reasons, every interval on a thread of its
 * own. Only the few functions below are bound ({@code nvml.h}); a function a driver lacks (the energy counter before
 * Volta, the reasons' new name before r535) leaves its field unreported.
 */
final class NvmlSource implements TelemetrySource {

    /** The NVML entry points used; each returns an {@code nvmlReturn_t}, 0 for success. */
    interface Nvml extends Library {
        int nvmlInit_v2();

        int nvmlShutdown();

        int nvmlSystemGetDriverVersion(byte[] version, int length);

        int nvmlDeviceGetCount_v2(IntByReference count);

        int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

        int nvmlDeviceGetPowerUsage(Pointer device, IntByReference milliwatts);

        int nvmlDeviceGetTotalEnergyConsumption(Pointer device, LongByReference millijoules);

        /** {@code nvmlUtilization_t}: two unsigned ints, gpu and memory, %. */
        int nvmlDeviceGetUtilizationRates(Pointer device, int[] utilization);

        /** {@code nvmlMemory_t}: total, free, used, bytes. */
        int nvmlDeviceGetMemoryInfo(Pointer device, long[] memory);

        int nvmlDeviceGetClockInfo(Pointer device, int type, IntByReference mhz);

        int nvmlDeviceGetTemperature(Pointer device, int sensor, IntByReference celsius);

        int nvmlDeviceGetCurrentClocksEventReasons(Pointer device, LongByReference reasons);

        int nvmlDeviceGetCurrentClocksThrottleReasons(Pointer device, LongByReference reasons);
    }

    private static final int NVML_CLOCK_SM = 0;
    private static final int NVML_CLOCK_MEM = 2;
    private static final int NVML_TEMPERATURE_GPU = 0;

    private final Nvml nvml;
    private final String driver;

    private NvmlSource(Nvml nvml, String driver) {
        this.nvml = nvml;
        this.driver = driver;
    }

    /** NVML when the library loads and initialises; empty on a machine without an NVIDIA driver. */
    static Optional<NvmlSource> probe() {
        for (String name : List.of("nvidia-ml", "libnvidia-ml.so.1")) {
            try {
                Nvml nvml = Native.load(name, Nvml.class);
                if (nvml.nvmlInit_v2() != 0) {
                    return Optional.empty();
                }
                byte[] version = new byte[80];
                String driver = nvml.nvmlSystemGetDriverVersion(version, version.length) == 0
                        ? Native.toString(version) : "?";
                return Optional.of(new NvmlSource(nvml, driver));
            } catch (UnsatisfiedLinkError e) {
                // not this name; or no driver at all
            }
        }
        return Optional.empty();
    }

    @Override
    public String name() {
        return "NVML (driver " + driver + ")";
    }

    @Override
    public AutoCloseable start(List<Integer> gpus, Duration interval, Consumer<GpuSample> sink) {
        List<Integer> indices = new ArrayList<>(gpus);
        if (indices.isEmpty()) {
            IntByReference count = new IntByReference();
            if (nvml.nvmlDeviceGetCount_v2(count) == 0) {
                for (int i = 0; i < count.getValue(); i++) {
                    indices.add(i);
                }
            }
        }
        List<Pointer> handles = new ArrayList<>();
        List<Integer> found = new ArrayList<>();
        for (int i : indices) {
            PointerByReference handle = new PointerByReference();
            if (nvml.nvmlDeviceGetHandleByIndex_v2(i, handle) == 0) {
                handles.add(handle.getValue());
                found.add(i);
            }
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "NVML sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            for (int i = 0; i < handles.size(); i++) {
                read(found.get(i), handles.get(i)).ifPresent(sink);
            }
        }, 0, Math.max(1, interval.toMillis()), TimeUnit.MILLISECONDS);
        return () -> {
            timer.shutdown();
            timer.awaitTermination(5, TimeUnit.SECONDS);
        };
    }

    /** One reading; empty when the GPU no longer answers (it fell off the bus, its driver was unloaded). */
    private Optional<GpuSample> read(int index, Pointer device) {
        long nanos = System.nanoTime();
        IntByReference power = new IntByReference();
        if (nvml.nvmlDeviceGetPowerUsage(device, power) != 0) {
            return Optional.empty();
        }
        LongByReference energy = new LongByReference();
        double joules = nvml.nvmlDeviceGetTotalEnergyConsumption(device, energy) == 0 ? energy.getValue() / 1e3 : Double.NaN;
        int[] utilization = new int[2];
        boolean util = nvml.nvmlDeviceGetUtilizationRates(device, utilization) == 0;
        long[] memory = new long[3];
        boolean mem = nvml.nvmlDeviceGetMemoryInfo(device, memory) == 0;
        IntByReference sm = new IntByReference();
        IntByReference memClock = new IntByReference();
        IntByReference temperature = new IntByReference();
        LongByReference reasons = new LongByReference();
        boolean haveReasons;
        try {
            haveReasons = nvml.nvmlDeviceGetCurrentClocksEventReasons(device, reasons) == 0;
        } catch (UnsatisfiedLinkError e) {
            haveReasons = nvml.nvmlDeviceGetCurrentClocksThrottleReasons(device, reasons) == 0;
        }
        return Optional.of(new GpuSample(nanos, index, power.getValue() / 1e3, joules,
                util ? Integer.toUnsignedLong(utilization[0]) : Double.NaN,
                util ? Integer.toUnsignedLong(utilization[1]) : Double.NaN, mem ? memory[2] : Double.NaN,
                nvml.nvmlDeviceGetClockInfo(device, NVML_CLOCK_SM, sm) == 0 ? sm.getValue() : Double.NaN,
                nvml.nvmlDeviceGetClockInfo(device, NVML_CLOCK_MEM, memClock) == 0 ? memClock.getValue() : Double.NaN,
                nvml.nvmlDeviceGetTemperature(device, NVML_TEMPERATURE_GPU, temperature) == 0 ? temperature.getValue()
                        : Double.NaN,
                haveReasons ? reasons.getValue() : GpuSample.UNKNOWN_REASONS));
    }
}
