package io.servebench.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The load a variant is measured under. On a class it applies to every variant; on a variant
 * method it overrides the class's settings one attribute at a time. Settings resolve as in JMH:
 * command line ({@code -p rate=4}) first, then the method, then the class, then the defaults below.
 *
 * <p>Numeric attributes use {@code -1} for "not set here"; an explicitly written value must be
 * positive (warm-up may be zero). String attributes use {@code ""} for "not set here".
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Workload {

    /** Not set here: inherit from the enclosing level. */
    int UNSET = -1;

    /**
     * Where prompts come from: {@code "sharegpt:PATH"} (a ShareGPT-format JSON file),
     * {@code "synthetic-sharegpt"} (the bundled made-up conversations) or
     * {@code "random:IN:OUT"} (random prompts of IN tokens asking for OUT tokens).
     * Default: {@code "synthetic-sharegpt"}.
     */
    String dataset() default "";

    /** Arrival profile, one of {@link Profile}'s names. Default: {@link Profile#CONSTANT}. */
    String profile() default "";

    /** Requests per second for rate profiles. Default: 1. */
    double rate() default UNSET;

    /** In-flight requests for {@link Profile#CONCURRENT}. Default: 1. */
    int concurrency() default UNSET;

    /** Measured requests per trial. Default: 100. */
    int requests() default UNSET;

    /** Requests sent before the measured ones and left out of the results. Default: 0. */
    int warmup() default UNSET;

    /**
     * Requests whose intended send time falls in the first this many seconds are warm-up requests, sent on
     * top of the measured ones and left out of the results. Not with {@link Profile#THROUGHPUT}. Default: 0.
     */
    double warmupSeconds() default UNSET;

    /** Gamma shape for {@link Profile#GAMMA}: 1 is Poisson, below 1 burstier, above 1 more even. Default: 1. */
    double burstiness() default UNSET;

    /**
     * For {@link Profile#CONSTANT}, {@link Profile#POISSON} and {@link Profile#GAMMA}: the rate grows linearly
     * from 0 to {@link #rate()} over this many seconds. Default: no ramp-up.
     */
    double rampUpSeconds() default UNSET;

    /**
     * For open-loop profiles (and the throughput and rate steps of a sweep): the most requests in flight. A
     * request whose time has come waits for a free slot; that wait is reported as client queue wait and is
     * part of the latencies measured from the schedule. Default: no cap.
     */
    int maxConcurrency() default UNSET;

    /** Stop sending new requests this many seconds after the start; requests in flight finish. Default: no limit. */
    double durationSeconds() default UNSET;

    /** Stop sending new requests once this many have failed; the block says so. Default: no limit. */
    int maxErrors() default UNSET;

    /**
     * Stop sending new requests once the server is over-saturated over a window of this many seconds: TTFT and the
     * requests in flight both rising across it, each slope above 0 at 95% and by a quarter of its mean or more; the
     * block states the rule and reports the requests sent until then. For sweeps and long trials past a server's
     * capacity. Default: no such stop.
     */
    double saturationWindowSeconds() default UNSET;

    /**
     * The share of measured requests, in percent (0 to 100), that the client calls off on purpose after
     * {@link #cancellationDelaySeconds()}, closing the connection as a user who goes away does; counted as cancelled,
     * never as successes or failures, their partial timings kept. Which requests: a draw per request from its index.
     * Default: none.
     */
    double cancellationRate() default UNSET;

    /** How long after its send (or its first token: {@link #cancellationAfter()}) a cancelled request is called off. */
    double cancellationDelaySeconds() default UNSET;

    /** {@code "send"} (default): the cancellation delay runs from the send; {@code "first-token"}: from the first token. */
    String cancellationAfter() default "";

    /**
     * The longest a request may last from its send; one that does not end by then is called off and fails as timed
     * out, while the load goes on. Unlike {@code --request-timeout} (silence), it bounds a stream that keeps trickling.
     * Default: no limit.
     */
    double timeoutSeconds() default UNSET;

    /**
     * The models or LoRA adapters the requests name, each request (each conversation) drawing one, with optional
     * weights: {@code "sql-lora:3,chat-lora:1"}; every figure is then also reported per model. The server must serve
     * them (vLLM's {@code --lora-modules}, SGLang's {@code --lora-paths}, the served model's own name). Default: the
     * served model alone.
     */
    String models() default "";

    /**
     * How {@link #models()} are drawn: {@code "weights"} (default: as given, 1 each when not), {@code "uniform"}, or
     * {@code "zipf"} / {@code "zipf:S"} (the k-th name weighs 1/k^S, S = 1 unless given).
     */
    String modelDistribution() default "";

    /**
     * For an engine at several URLs (replicas of one engine, {@code @Engine(url = "http://a:8000 http://b:8000")}): the
     * replicas' weights, in order, as {@code "3,1"}; each conversation goes to one replica by smooth weighted round
     * robin, and every figure is also reported per replica. Default: round robin.
     */
    String endpointWeights() default "";

    /** For {@link Profile#SWEEP}: how many constant rates between the synchronous and the throughput rate. Required there. */
    int sweepRates() default UNSET;

    /** {@code "chat"} ({@code /v1/chat/completions}) or {@code "completions"} ({@code /v1/completions}). Default: chat. */
    String api() default "";

    /**
     * A JSON object whose fields are added to every request body, e.g. {@code "{\"temperature\": 0}"}; it may
     * not set {@code model}, {@code messages}, {@code prompt}, {@code stream} or {@code stream_options}.
     * Default: none.
     */
    String extraBody() default "";

    /**
     * {@code "true"} or {@code "false"}: ask for {@code stream_options.continuous_usage_stats} (exact token counts
     * per event). Default: on for vllm, sglang and sim, which support it.
     */
    String continuousUsage() default "";

    /**
     * {@code "true"} or {@code "false"}: ask for exactly each request's reply length ({@code min_tokens} =
     * {@code max_tokens} and {@code ignore_eos}), as benchmark clients do to fix output lengths. {@code "false"} sends
     * {@code max_tokens} alone, for a server that refuses the other two fields (the OpenAI API itself, a gateway that
     * checks the schema); its replies may then end sooner, at the model's own end. Default: true.
     */
    String exactOutput() default "";
}
