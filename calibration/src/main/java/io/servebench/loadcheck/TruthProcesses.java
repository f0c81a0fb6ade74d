package io.servebench.loadcheck;

import io.servebench.load.Spread;
import io.servebench.truth.ServerTruth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The truth server of a {@code --split N} check: N processes ({@link SplitTruth}), each on a port of its own, the load
 * spread over them round robin as over an engine's replicas. Each process has its own open-files limit, and the
 * client its own range of local ports to each port it connects to (Linux picks a connection's local port per
 * destination), so that neither one server's files nor one address's 28,232 ports cap the streams a check holds.
 * A request's truth is asked of the server the spread sent it to.
 */
final class TruthProcesses implements TruthSide {

    private final List<SplitTruth> servers;
    private final Spread spread;

    private TruthProcesses(List<SplitTruth> servers, Spread spread) {
        this.servers = servers;
        this.spread = spread;
    }

    /** Starts the check's {@link LoadCheck#truthProcesses()} servers side by side (each a JVM's start-up). */
    static TruthProcesses start(LoadCheck check) throws IOException {
        List<CompletableFuture<SplitTruth>> starting = new ArrayList<>();
        for (int i = 0; i < check.truthProcesses(); i++) {
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return SplitTruth.start(check);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        List<SplitTruth> started = new ArrayList<>();
        IOException failure = null;
        for (CompletableFuture<SplitTruth> s : starting) {
            try {
                started.add(s.join());
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e;
                failure = failure == null ? new IOException(cause.getMessage(), cause) : failure;
            }
        }
        TruthProcesses processes = new TruthProcesses(List.copyOf(started), check.spread());
        if (failure != null) {
            // the ones that did start must not outlive a check that never ran
            processes.close();
            throw failure;
        }
        return processes;
    }

    @Override
    public List<URI> baseUris() {
        return servers.stream().map(SplitTruth::baseUri).toList();
    }

    @Override
    public Optional<? extends ServerTruth> takeTruth(String requestId, Duration wait) {
        return servers.get(spread.replica(Integer.parseInt(requestId))).takeTruth(requestId, wait);
    }

    @Override
    public long cpuNs() {
        return servers.stream().mapToLong(SplitTruth::cpuNs).sum();
    }

    /** The sum of each server's peak: at least the streams open at once, and exactly that when they peak together. */
    @Override
    public int peakStreams() {
        return servers.stream().mapToInt(SplitTruth::peakStreams).sum();
    }

    @Override
    public long acceptFailures() {
        return servers.stream().mapToLong(SplitTruth::acceptFailures).sum();
    }

    @Override
    public Optional<String> firstAcceptFailure() {
        return servers.stream().map(SplitTruth::firstAcceptFailure).flatMap(Optional::stream).findFirst();
    }

    /** Each server that stopped serving, in words, one sentence each. */
    @Override
    public Optional<String> ended() {
        List<String> ended = servers.stream().map(SplitTruth::ended).flatMap(Optional::stream).toList();
        return ended.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", ended));
    }

    @Override
    public int filesPerConnection() {
        return 1;
    }

    /** Lets every server go at once, then gives them one grace together: N of them take no longer than one. */
    @Override
    public void close() {
        servers.forEach(SplitTruth::letGo);
        long deadline = System.nanoTime() + SplitTruth.EXIT_GRACE.toNanos();
        servers.forEach(s -> s.awaitExit(deadline));
    }
}
