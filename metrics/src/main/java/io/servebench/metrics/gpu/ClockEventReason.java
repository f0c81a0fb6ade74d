package io.servebench.metrics.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a GPU runs below its top clock: NVML's {@code nvmlClocksEventReason*} bits ({@code nvml.h}; the same mask
 * {@code nvidia-smi --query-gpu=clocks_event_reasons.active} prints and DCGM's
 * {@code DCGM_FI_DEV_CLOCK_THROTTLE_REASONS} carries). {@link #throttles()} tells the reasons that cost a busy GPU speed
 * from those that only describe it (idle, clocks set by the user or a sync boost).
 */
public enum ClockEventReason {
    GPU_IDLE(0x1, "idle", false),
    APPLICATIONS_CLOCKS_SETTING(0x2, "application clocks", false),
    SW_POWER_CAP(0x4, "power cap", true),
    HW_SLOWDOWN(0x8, "hardware slowdown", true),
    SYNC_BOOST(0x10, "sync boost", false),
    SW_THERMAL_SLOWDOWN(0x20, "thermal (software)", true),
    HW_THERMAL_SLOWDOWN(0x40, "thermal (hardware)", true),
    HW_POWER_BRAKE_SLOWDOWN(0x80, "power brake", true),
    DISPLAY_CLOCK_SETTING(0x100, "display clock", false);

    private final long bit;
    private final String label;
    private final boolean throttles;

    ClockEventReason(long bit, String label, boolean throttles) {
        this.bit = bit;
        this.label = label;
        this.throttles = throttles;
    }

    /** The reason's bit in NVML's mask. */
    public long bit() {
        return bit;
    }

    /** A few words for reports. */
    public String label() {
        return label;
    }

    /** Whether the reason slows a GPU that has work: a power or thermal limit, or a hardware slowdown. */
    public boolean throttles() {
        return throttles;
    }

    /** The reasons set in {@code mask}; none for {@link GpuSample#UNKNOWN_REASONS}. */
    public static List<ClockEventReason> in(long mask) {
        List<ClockEventReason> set = new ArrayList<>();
        if (mask == GpuSample.UNKNOWN_REASONS) {
            return set;
        }
        for (ClockEventReason r : values()) {
            if ((mask & r.bit) != 0) {
                set.add(r);
            }
        }
        return set;
    }

    /** Whether {@code mask} holds a reason that {@link #throttles()}. */
    public static boolean throttled(long mask) {
        return in(mask).stream().anyMatch(ClockEventReason::throttles);
    }
}
