package io.servebench.loadcheck;

import io.servebench.load.LoadJvm;
import io.servebench.truth.SentEvent;
import io.servebench.truth.ServerTruth;
import io.servebench.truth.TruthRecord;
import io.servebench.truth.TruthServer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The ground-truth server in a process of its own ({@code loadcheck --split}): each side has its own open-files limit
 * (in one process a connection costs two), and the client's process holds only the client. The two talk over the
 * child's standard input and output, a line each way per request: {@code take ID} asks for a request's truth once the
 * client has its record, {@code truth ID ...} answers it. Times are {@link System#nanoTime()} of each JVM, which on
 * Linux is CLOCK_MONOTONIC: the same clock on one host.
 */
final class SplitTruth implements AutoCloseable {

    /** The child's first line: {@code listening PORT}. */
    private static final String LISTENING = "listening ";
    private static final String TRUTH = "truth";
    private static final String STATS = "stats";

    private final Process child;
    private final URI baseUri;
    private final PrintWriter toChild;
    private final Map<String, CompletableFuture<Optional<TruthRecord>>> asked = new ConcurrentHashMap<>();
    private volatile CompletableFuture<long[]> stats = new CompletableFuture<>();
    /** The child's counters as last told: what a child that has ended still counts for. */
    private volatile long[] lastStats = {0, 0, 0};
    private volatile String firstAcceptFailure;
    /** Why the child stopped answering before the check let it go, {@code null} while it serves. */
    private volatile String ended;
    private final Thread reader;
    private volatile boolean closing;

    private SplitTruth(Process child) throws IOException {
        this.child = child;
        BufferedReader fromChild = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String first = fromChild.readLine();
        if (first == null || !first.startsWith(LISTENING)) {
            child.destroyForcibly();
            throw new IOException("the truth server's process did not start: it said " + first);
        }
        this.baseUri = URI.create("http://127.0.0.1:" + first.substring(LISTENING.length()).strip());
        this.toChild = new PrintWriter(new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8), false);
        this.reader = new Thread(() -> read(fromChild), "servebench-truth-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts the truth server in a JVM of its own (this one's {@code java} and class path), following the check's
     * script on {@link LoadCheck#loopsPerProcess()} event loops.
     */
    static SplitTruth start(LoadCheck check) throws IOException {
        // a load JVM's collector: the server's pauses would show as TTFT and ITL error
        List<String> argv = LoadJvm.command(System.getProperty("java.class.path"), SplitTruth.class,
                Integer.toString(check.tokens()), Long.toString(check.ttft().toNanos()), Long.toString(check.gap().toNanos()),
                Integer.toString(check.loopsPerProcess()));
        Process child = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new SplitTruth(child);
    }

    /** Where this process serves. */
    URI baseUri() {
        return baseUri;
    }

    /** What the server did for the request, waited for up to {@code wait}, and let go of; empty when unknown. */
    Optional<? extends ServerTruth> takeTruth(String requestId, Duration wait) {
        if (ended != null) {
            return Optional.empty();
        }
        CompletableFuture<Optional<TruthRecord>> answer = new CompletableFuture<>();
        asked.put(requestId, answer);
        send("take " + requestId);
        if (ended != null) {
            // it ended between the check above and the question: nobody answers
            asked.remove(requestId);
            return Optional.empty();
        }
        try {
            // the child waits up to the same time for the response to end, then answers anyway
            return answer.get(wait.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            asked.remove(requestId);
        }
    }

    /** The CPU time of the server's event loops so far, ns. */
    long cpuNs() {
        return stats()[0];
    }

    int peakStreams() {
        return (int) stats()[1];
    }

    long acceptFailures() {
        return stats()[2];
    }

    Optional<String> firstAcceptFailure() {
        stats();
        return Optional.ofNullable(firstAcceptFailure);
    }

    /** Why the process stopped serving before the check let it go; empty while it serves. */
    Optional<String> ended() {
        return Optional.ofNullable(ended);
    }

    /**
     * The server's counters as of now: asked for afresh each time, or the last it told where it has ended (or does
     * not answer), so that what the client measured is still reported.
     */
    private synchronized long[] stats() {
        if (ended != null) {
            return lastStats;
        }
        stats = new CompletableFuture<>();
        send(STATS);
        try {
            return stats.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return lastStats;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return lastStats;
        }
    }

    private synchronized void send(String line) {
        toChild.println(line);
        toChild.flush();
    }

    private void read(BufferedReader fromChild) {
        try {
            for (String line = fromChild.readLine(); line != null; line = fromChild.readLine()) {
                if (line.startsWith(TRUTH + "\t")) {
                    TruthRecord truth = decode(line);
                    CompletableFuture<Optional<TruthRecord>> answer = asked.get(truth.requestId());
                    if (answer != null) {
                        answer.complete(Optional.of(truth));
                    }
                } else if (line.startsWith(TRUTH + " none ")) {
                    CompletableFuture<Optional<TruthRecord>> answer = asked.get(line.substring((TRUTH + " none ").length()));
                    if (answer != null) {
                        answer.complete(Optional.empty());
                    }
                } else if (line.startsWith(STATS + " ")) {
                    String[] f = line.split(" ", 5);
                    firstAcceptFailure = f.length > 4 ? f[4] : null;
                    lastStats = new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
                    stats.complete(lastStats);
                }
            }
            endedBefore("its output ended");
        } catch (IOException | RuntimeException e) {
            endedBefore("its output could not be read: " + e.getMessage());
        }
    }

    /**
     * The child stopped answering: every question waiting for it, and every one asked from now, is answered at once
     * with no truth, instead of each waiting out its time. Not called for the end {@link #close} brings about.
     */
    private void endedBefore(String why) {
        if (closing) {
            return;
        }
        String exit;
        try {
            exit = child.waitFor(2, TimeUnit.SECONDS) ? "exit code " + child.exitValue() : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = "exit code unknown";
        }
        ended = String.format("the truth server's process at %s (pid %d) stopped serving before the check's end: %s"
                + " (%s)", baseUri, child.pid(), why, exit);
        asked.values().forEach(answer -> answer.complete(Optional.empty()));
        stats.complete(lastStats);
    }

    /** How long a child may take to end once its pipe is closed, before it is killed. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(10);

    @Override
    public void close() throws IOException {
        letGo();
        awaitExit(System.nanoTime() + EXIT_GRACE.toNanos());
    }

    /** Tells the child the check is over (its pipe closed), without waiting for it to end. */
    void letGo() {
        closing = true;
        toChild.close();
    }

    /** Waits for the child to end until {@code deadlineNs} ({@link System#nanoTime()}), then kills it. */
    void awaitExit(long deadlineNs) {
        try {
            if (!child.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.destroyForcibly();
        }
    }

    /**
     * The server side of a split check, as {@link #start} runs it: {@code TOKENS TTFT_NS GAP_NS LOOPS}; the pipe to the
     * check is this process's standard input and output.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("expected TOKENS TTFT_NS GAP_NS LOOPS, got " + List.of(args));
        }
        LoadCheck check = new LoadCheck(1, 0, Integer.parseInt(args[0]), Duration.ofSeconds(1), Duration.ZERO,
                Duration.ofNanos(Long.parseLong(args[1])), Duration.ofNanos(Long.parseLong(args[2])), Integer.parseInt(args[3]),
                1, 1);
        serve(check, new OutputStreamWriter(System.out, StandardCharsets.UTF_8),
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
    }

    /**
     * The child's side: serves the check's script, says its port, and answers {@code take ID} and {@code stats} until
     * its input ends. A pool looks truths up, so that one request still being written holds no other answer back.
     */
    static void serve(LoadCheck check, Writer stdout, BufferedReader stdin) throws IOException {
        PrintWriter out = new PrintWriter(stdout, false);
        ExecutorService lookups = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "servebench-truth-lookup");
            t.setDaemon(true);
            return t;
        });
        try (TruthServer server = TruthServer.start(check.script(), 0, check.serverLoops())) {
            synchronized (out) {
                out.println(LISTENING + server.baseUri().getPort());
                out.flush();
            }
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.startsWith("take ")) {
                    String id = line.substring("take ".length());
                    lookups.execute(() -> {
                        String answer = server.takeTruth(id, LoadCheck.TRUTH_WAIT).map(SplitTruth::encode)
                                .orElse(TRUTH + " none " + id);
                        synchronized (out) {
                            out.println(answer);
                            out.flush();
                        }
                    });
                } else if (line.equals(STATS)) {
                    String answer = STATS + " " + server.cpuNs() + " " + server.peakStreams() + " " + server.acceptFailures()
                            + server.firstAcceptFailure().map(f -> " " + f.replace('\n', ' ')).orElse("");
                    synchronized (out) {
                        out.println(answer);
                        out.flush();
                    }
                }
            }
        } finally {
            lookups.shutdownNow();
        }
    }

    /**
     * One truth as one line: {@code truth}, id, received, status, tokens, finished, failed-at, error ({@code e} and
     * its text, empty for none), then each event
     * as {@code written:tokens:reasoning:due}, tab-separated (ids and errors have their tabs and line ends escaped).
     */
    static String encode(TruthRecord t) {
        StringBuilder sb = new StringBuilder(64 + 48 * t.events().size()).append(TRUTH).append('\t')
                .append(escape(t.requestId())).append('\t').append(t.receivedNs()).append('\t').append(t.httpStatus())
                .append('\t').append(t.completionTokens()).append('\t').append(t.finished() ? 1 : 0).append('\t')
                .append(t.failedNs()).append('\t').append(t.error() == null ? "" : "e" + escape(t.error())).append('\t');
        for (int i = 0; i < t.events().size(); i++) {
            SentEvent e = t.events().get(i);
            sb.append(i == 0 ? "" : ",").append(e.writtenNs()).append(':').append(e.tokens()).append(':')
                    .append(e.reasoning() ? 1 : 0).append(':').append(e.dueNs());
        }
        return sb.toString();
    }

    /** The truth {@link #encode} wrote. */
    static TruthRecord decode(String line) {
        String[] f = line.split("\t", -1);
        List<SentEvent> events = new ArrayList<>();
        if (!f[8].isEmpty()) {
            for (String e : f[8].split(",")) {
                String[] p = e.split(":");
                events.add(new SentEvent(Long.parseLong(p[0]), Integer.parseInt(p[1]), p[2].equals("1"), Long.parseLong(p[3])));
            }
        }
        return new TruthRecord(unescape(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]), events,
                f[5].equals("1"), f[7].isEmpty() ? null : unescape(f[7].substring(1)), Long.parseLong(f[6]));
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
