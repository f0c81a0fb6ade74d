package io.servebench.microbenchmarks;

import io.servebench.load.EventPath;
import io.servebench.load.RequestRecord;
import io.servebench.workload.RequestSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The client's whole per-event path, bytes in and record out, without the socket: one streamed response
 * of {@value #EVENTS} token events, each in its own HTTP chunk and its own read (as a loaded server
 * writes them), goes through the connection's HTTP/1.1 decoder, the SSE parser and the chunk
 * interpretation of a request exchange, which then builds its {@link RequestRecord}. The score is events
 * per second on one thread (one core); its inverse is the client's user-mode CPU per event apart from the
 * socket read and the selector, which {@code loadcheck} measures with them.
 *
 * <p>{@code chunk}: {@code plain} chunks are read by the byte scan; {@code escaped} ones carry an escaped
 * field name, which the byte scan declines to Jackson's streaming parser (the path every chunk took before
 * the byte scan), so the two scores are the scan's before and after.
 *
 * <p>{@code java -jar microbenchmarks/target/microbenchmarks.jar EventPath -f 1 -wi 3 -i 5}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EventPathBenchmark {

    static final int EVENTS = 256;

    @Param({"plain", "escaped"})
    public String chunk;

    private EventPath path;
    private RequestSpec spec;
    private byte[][] reads;

    @Setup(Level.Trial)
    public void setUp() {
        path = new EventPath();
        spec = new RequestSpec(7, "a prompt", 342, EVENTS, true, false);
        reads = response(chunk.equals("escaped"));
        // the bytes must make a successful record, or the benchmark measures a failure path
        RequestRecord r = once();
        if (!r.succeeded() || r.eventTimesNs().length != EVENTS) {
            throw new IllegalStateException("the benchmark's response does not parse as intended: " + r);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        path.close();
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public RequestRecord bytesToRecord() {
        return once();
    }

    private RequestRecord once() {
        return path.run(spec, reads);
    }

    /** The response as the truth server writes it: head, then one HTTP chunk per SSE event, one read each. */
    private static byte[][] response(boolean escaped) {
        List<byte[]> out = new ArrayList<>();
        out.add(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: keep-alive\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        String id = "chatcmpl-3f1c2a8e9b7d4c6a8f0e1d2c3b4a5968";
        String logprobs = escaped ? "\"logprob\\u0073\"" : "\"logprobs\"";
        String head = "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1741234567,"
                + "\"model\":\"Qwen/Qwen3.5-9B\",\"choices\":[{\"index\":0,";
        String[] words = {" the", " model", " answers", " with", " a", " token", ",", " then", " another", "."};
        out.add(chunk(head + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}," + logprobs + ":null,"
                + "\"finish_reason\":null}]}"));
        for (int i = 1; i <= EVENTS; i++) {
            out.add(chunk(head + "\"delta\":{\"content\":\"" + words[i % words.length] + "\"}," + logprobs + ":null,"
                    + "\"finish_reason\":" + (i == EVENTS ? "\"length\"" : "null") + "}],\"usage\":{\"prompt_tokens\":342,"
                    + "\"total_tokens\":" + (342 + i) + ",\"completion_tokens\":" + i + "}}"));
        }
        out.add(chunk("[DONE]"));
        out.add("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toArray(byte[][]::new);
    }

    private static byte[] chunk(String data) {
        byte[] event = ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes((Integer.toHexString(event.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(event);
        b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }
}
