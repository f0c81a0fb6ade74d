package io.servebench.microbenchmarks;

import io.servebench.load.DeltaTokenCounter;
import io.servebench.load.SseParser;
import io.servebench.load.StreamAccumulator;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The client's per-event work on realistic vLLM chat chunks (role chunk, content events with
 * {@code continuous_usage_stats}, final usage chunk, {@code [DONE]}), fed in reads of {@code eventsPerRead}
 * events. Scores are events per second on one thread (one core).
 *
 * <ul>
 *   <li>{@code parse}: the byte-level SSE parser alone (line splitting, {@code data} joining, UTF-8 decoding).</li>
 *   <li>{@code parseAndInterpret}: the parser and the chunk interpretation ({@link StreamAccumulator}: JSON,
 *       token events, usage), what the client does for every event it reads.</li>
 * </ul>
 *
 * <p>{@code java -jar microbenchmarks/target/microbenchmarks.jar -f 1 -wi 3 -i 5}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SseParserBenchmark {

    /** Token events per stream: a typical response length. */
    static final int EVENTS = 256;

    /** Events per network read: 1 when the client keeps up, more when reads coalesce. */
    @Param({"1", "8"})
    public int eventsPerRead;

    private ByteBuffer[] reads;

    @Setup(Level.Trial)
    public void setUp() {
        String id = "chatcmpl-3f1c2a8e9b7d4c6a8f0e1d2c3b4a5968";
        String head = "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1741234567,"
                + "\"model\":\"Qwen/Qwen3.5-9B\",\"choices\":[{\"index\":0,";
        String[] words = {" the", " model", " answers", " with", " a", " token", ",", " then", " another", "."};
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        write(stream, head + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}],"
                + "\"usage\":{\"prompt_tokens\":342,\"total_tokens\":342,\"completion_tokens\":0}}");
        for (int i = 1; i <= EVENTS; i++) {
            write(stream, head + "\"delta\":{\"content\":\"" + words[i % words.length] + "\"},\"logprobs\":null,"
                    + "\"finish_reason\":" + (i == EVENTS ? "\"length\"" : "null") + "}],\"usage\":{\"prompt_tokens\":342,"
                    + "\"total_tokens\":" + (342 + i) + ",\"completion_tokens\":" + i + "}}");
        }
        write(stream, "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1741234567,\"model\":"
                + "\"Qwen/Qwen3.5-9B\",\"choices\":[],\"usage\":{\"prompt_tokens\":342,\"total_tokens\":"
                + (342 + EVENTS) + ",\"completion_tokens\":" + EVENTS + "}}");
        write(stream, "[DONE]");
        reads = split(stream.toByteArray(), eventsPerRead);
    }

    private static void write(ByteArrayOutputStream out, String data) {
        out.writeBytes(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Splits the stream after every {@code perRead}-th event end ({@code \n\n}). */
    private static ByteBuffer[] split(byte[] all, int perRead) {
        java.util.List<ByteBuffer> parts = new java.util.ArrayList<>();
        int start = 0;
        int events = 0;
        for (int i = 1; i < all.length; i++) {
            if (all[i] == '\n' && all[i - 1] == '\n' && ++events % perRead == 0) {
                parts.add(ByteBuffer.wrap(all, start, i + 1 - start).slice());
                start = i + 1;
            }
        }
        if (start < all.length) {
            parts.add(ByteBuffer.wrap(all, start, all.length - start).slice());
        }
        return parts.toArray(ByteBuffer[]::new);
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public void parse(Blackhole bh) {
        SseParser parser = new SseParser();
        SseParser.Listener listener = bh::consume;
        for (ByteBuffer read : reads) {
            parser.feed(read.duplicate(), listener);
        }
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public int parseAndInterpret() {
        SseParser parser = new SseParser();
        StreamAccumulator accumulator = new StreamAccumulator(DeltaTokenCounter.ONE_PER_EVENT);
        long t = 0;
        for (ByteBuffer read : reads) {
            accumulator.beginRead(++t);
            parser.feed(read.duplicate(), accumulator);
        }
        return accumulator.tokenEvents();
    }
}
