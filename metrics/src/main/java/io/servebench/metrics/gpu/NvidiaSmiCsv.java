package io.servebench.metrics.gpu;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what {@code nvidia-smi --query-gpu=FIELDS --format=csv -lms N} prints: a header naming each column (with its
 * unit, e.g. {@code power.draw [W]}), then one line per GPU and sample, values with their units ({@code 78.94 W},
 * {@code 0 %}, {@code 143771 MiB}, {@code 1980 MHz}, {@code 0x0000000000000004}) or {@code [N/A]} /
 * {@code [Not Supported]}. Columns are found by name, so their order and the fields a driver lacks do not matter.
 * Recorded on an H200 with driver 580.159.04: {@code src/test/resources/gpu-telemetry/}.
 */
final class NvidiaSmiCsv {

    /** The fields asked for, as {@code --query-gpu} takes them; the clock-reason field's name depends on the driver. */
    static List<String> queryFields(String clockReasonsField) {
        return List.of("timestamp", "index", "power.draw", "utilization.gpu", "utilization.memory", "memory.used",
                "clocks.sm", "clocks.mem", "temperature.gpu", clockReasonsField);
    }

    /** The clock-reason field drivers before 535 know; newer ones print {@code clocks_event_reasons.active}. */
    static final String OLD_REASONS_FIELD = "clocks_throttle_reasons.active";
    static final String REASONS_FIELD = "clocks_event_reasons.active";

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", Locale.ROOT);
    private static final double MIB = 1024.0 * 1024;

    private final Map<String, Integer> columns = new HashMap<>();
    private final ZoneId zone;

    /**
     * @param header the first line nvidia-smi printed
     * @param zone   the time zone its timestamps are written in (the machine's)
     * @throws IllegalArgumentException when the header has no {@code index} column, naming what it has
     */
    NvidiaSmiCsv(String header, ZoneId zone) {
        this.zone = zone;
        List<String> names = split(header);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            int unit = name.indexOf(" [");
            columns.put(unit < 0 ? name : name.substring(0, unit), i);
        }
        if (!columns.containsKey("index")) {
            throw new IllegalArgumentException("not an nvidia-smi --query-gpu CSV header: \"" + header
                    + "\"; expected columns such as index, power.draw [W]");
        }
    }

    /**
     * One sample from a data line, or empty for a line that is not one (a blank line, a repeated header, a message).
     *
     * @param nanosOfEpochMillis turns the line's timestamp (ms since the epoch) into the sample's time; used only when
     *                           the line has a timestamp, else {@code receivedNanos} is the sample's time
     */
    Optional<GpuSample> parse(String line, long receivedNanos, java.util.function.LongUnaryOperator nanosOfEpochMillis) {
        List<String> v = split(line);
        if (v.size() != columns.size() || v.get(columns.get("index")).equals("index")) {
            return Optional.empty();
        }
        int gpu;
        try {
            gpu = Integer.parseInt(v.get(columns.get("index")));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        long nanos = receivedNanos;
        Integer ts = columns.get("timestamp");
        if (ts != null) {
            try {
                long millis = LocalDateTime.parse(v.get(ts), TIMESTAMP).atZone(zone).toInstant().toEpochMilli();
                nanos = nanosOfEpochMillis.applyAsLong(millis);
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        double memory = number(v, "memory.used");
        return Optional.of(new GpuSample(nanos, gpu, number(v, "power.draw"), Double.NaN, number(v, "utilization.gpu"),
                number(v, "utilization.memory"), memory * MIB, number(v, "clocks.current.sm"),
                number(v, "clocks.current.memory"), number(v, "temperature.gpu"), reasons(v)));
    }

    private double number(List<String> v, String column) {
        Integer i = columns.get(column);
        if (i == null) {
            return Double.NaN;
        }
        String text = v.get(i);
        int space = text.indexOf(' ');
        try {
            return Double.parseDouble(space < 0 ? text : text.substring(0, space));
        } catch (NumberFormatException e) {
            // [N/A], [Not Supported]
            return Double.NaN;
        }
    }

    private long reasons(List<String> v) {
        Integer i = columns.getOrDefault(REASONS_FIELD, columns.get(OLD_REASONS_FIELD));
        if (i == null || !v.get(i).startsWith("0x")) {
            return GpuSample.UNKNOWN_REASONS;
        }
        return Long.parseUnsignedLong(v.get(i).substring(2), 16);
    }

    private static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        for (String part : line.split(",", -1)) {
            out.add(part.strip());
        }
        return out;
    }
}
