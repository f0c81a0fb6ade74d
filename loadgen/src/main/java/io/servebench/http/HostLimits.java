package io.servebench.http;

import com.sun.management.UnixOperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * What this machine lets the process open: each connection takes a file descriptor (two, when the
 * server runs in the same process) and, per server address, a local port. These are the limits that cap
 * open streams long before memory does.
 *
 * @param maxFiles  the most descriptors this process may have open ({@code ulimit -n}, as raised by the
 *                  JVM), -1 where unknown
 * @param openFiles descriptors open now, -1 where unknown
 * @param portLow   the first local (ephemeral) port, -1 where unknown
 * @param portHigh  the last one, -1 where unknown
 */
public record HostLimits(long maxFiles, long openFiles, int portLow, int portHigh) {

    private static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** The limits as they stand now. */
    public static HostLimits current() {
        long max = -1;
        long open = -1;
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix) {
            max = unix.getMaxFileDescriptorCount();
            open = unix.getOpenFileDescriptorCount();
        }
        int low = -1;
        int high = -1;
        try {
            // readString gets a short read from procfs, which reports a size of 0
            String[] range = String.join(" ", Files.readAllLines(PORT_RANGE)).trim().split("\\s+");
            if (range.length == 2) {
                low = Integer.parseInt(range[0]);
                high = Integer.parseInt(range[1]);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the limit stays unknown
        }
        return new HostLimits(max, open, low, high);
    }

    /** Local ports for connections to one server address, -1 where unknown. */
    public int ports() {
        return portLow < 0 ? -1 : portHigh - portLow + 1;
    }

    /**
     * How many more connections these limits allow, {@code descriptorsPerConnection} descriptors each,
     * {@link Integer#MAX_VALUE} where neither limit is known.
     */
    public long connectionsLeft(int descriptorsPerConnection) {
        long byFiles = maxFiles < 0 ? Long.MAX_VALUE : (maxFiles - openFiles) / descriptorsPerConnection;
        long byPorts = ports() < 0 ? Long.MAX_VALUE : ports();
        long left = Math.min(byFiles, byPorts);
        return left == Long.MAX_VALUE ? Integer.MAX_VALUE : left;
    }

    /** A warning when {@code connections} would not fit these limits, naming the one that binds. */
    public Optional<String> warning(int connections, int descriptorsPerConnection) {
        if (connections <= connectionsLeft(descriptorsPerConnection)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%,d connections may be needed but %s; raise the limit"
                        + " (ulimit -n, sysctl net.ipv4.ip_local_port_range) or the load will queue behind it",
                connections, this));
    }

    /**
     * The limits alone, for a note written after a load, when the files open as these limits were read say nothing
     * of the moment a limit was hit: e.g. {@code at most 20,000 open files (ulimit -n), local ports 32768-60999 (28,232)}.
     */
    public String bounds() {
        String files = maxFiles < 0 ? "open files unknown"
                : String.format(Locale.ROOT, "at most %,d open files (ulimit -n)", maxFiles);
        return files + ", " + portRange();
    }

    /** E.g. {@code open files 35 of 20,000 (ulimit -n), local ports 32768-60999 (28,232)}. */
    @Override
    public String toString() {
        String files = maxFiles < 0 ? "open files unknown"
                : String.format(Locale.ROOT, "open files %,d of %,d (ulimit -n)", openFiles, maxFiles);
        return files + ", " + portRange();
    }

    private String portRange() {
        return portLow < 0 ? "local ports unknown"
                : String.format(Locale.ROOT, "local ports %d-%d (%,d)", portLow, portHigh, ports());
    }
}
