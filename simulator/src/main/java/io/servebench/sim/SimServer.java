package io.servebench.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The simulated engine as a program of its own, started and stopped like {@code vllm serve}: it serves until
 * SIGTERM or Ctrl-C, so the whole process path of a real engine (launch, readiness, teardown) runs on machines
 * without a GPU.
 *
 * <pre>
 * java -cp benchmarks.jar io.servebench.sim.SimServer MODEL [--host H] [--port P] [--dialect vllm|sglang|sim] [--seed S] [--gpu ID] [FLAGS...]
 * </pre>
 *
 * Engine flags are read in the dialect's spelling, {@code --name=value} or {@code --name value}.
 */
public final class SimServer {

    /** Usage text, for {@code -h} and for a command line that cannot be read. */
    public static final String USAGE = "usage: SimServer MODEL [--host H] [--port P] [--dialect vllm|sglang|sim] [--seed S] [--gpu ID] [FLAGS...]";

    private SimServer() {
    }

    /**
     * What to serve.
     *
     * @param model       the model id to serve
     * @param host        the address to listen on: 127.0.0.1 by default, {@code 0.0.0.0} in a container
     * @param port        the port, 0 for any free one
     * @param dialect     whose flags {@code engineFlags} are
     * @param seed        seeds output lengths, words and draft acceptance
     * @param engineFlags the engine flags, one string each ({@code --max-num-seqs=128})
     * @param gpu         the GPU it imitates, per tensor-parallel rank
     */
    public record Options(String model, String host, int port, SimDialect dialect, long seed, List<String> engineFlags,
                          GpuProfile gpu) {

        /** Where it listens unless told otherwise: this host only, unlike {@code vllm serve}'s every interface. */
        public static final String DEFAULT_HOST = "127.0.0.1";
        /** The port of {@code vllm serve}. */
        public static final int DEFAULT_PORT = 8000;
        /** The seed of a run that names none. */
        public static final long DEFAULT_SEED = 42;

        public Options {
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("no MODEL given; " + USAGE);
            }
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("--host is empty; expected an address such as 127.0.0.1 or 0.0.0.0");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port " + port + ": expected 0 to 65535");
            }
            engineFlags = List.copyOf(engineFlags);
            if (gpu == null) {
                throw new IllegalArgumentException("no GPU given; " + USAGE);
            }
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (List.of(args).contains("-h") || List.of(args).contains("--help")) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = parse(List.of(args));
            serve(options, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Reads a command line: MODEL, {@code --host}, {@code --port}, {@code --dialect}, {@code --seed} and {@code --gpu} (an id of
     * {@link GpuProfile#catalogue()}, default {@code h100}) (each {@code --x=v} or
     * {@code --x v}); every other argument is an engine flag.
     *
     * @throws IllegalArgumentException naming the argument that cannot be read
     */
    public static Options parse(List<String> args) {
        String model = null;
        String host = Options.DEFAULT_HOST;
        int port = Options.DEFAULT_PORT;
        SimDialect dialect = SimDialect.VLLM;
        long seed = Options.DEFAULT_SEED;
        GpuProfile gpu = GpuProfile.h100Sxm80gb();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (List.of("--host", "--port", "--dialect", "--seed", "--gpu").contains(name)) {
                String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1)
                        : i + 1 < args.size() ? args.get(++i) : null;
                if (value == null) {
                    throw new IllegalArgumentException(name + " needs a value; " + USAGE);
                }
                switch (name) {
                    case "--host" -> host = value;
                    case "--port" -> port = Math.toIntExact(number(name, value, "a port number"));
                    case "--seed" -> seed = number(name, value, "a whole number");
                    case "--gpu" -> gpu = GpuProfile.named(value);
                    default -> dialect = SimDialect.of(value);
                }
            } else if (model == null && !arg.startsWith("-")) {
                model = arg;
            } else {
                rest.add(arg);
            }
        }
        return new Options(model, host, port, dialect, seed, joinValues(rest), gpu);
    }

    private static long number(String option, String value, String expected) {
        try {
            long n = Long.parseLong(value.strip());
            if (option.equals("--port") && (n < 0 || n > 65535)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + value + ": expected " + expected);
        }
    }

    /**
     * Starts the engine, prints where it serves to {@code out}, and returns once the JVM is shutting down
     * (SIGTERM, Ctrl-C) and the engine has stopped.
     *
     * @throws IllegalArgumentException when the flags do not configure an engine
     * @throws IOException              when the port cannot be bound
     */
    public static void serve(Options options, PrintStream out) throws IOException, InterruptedException {
        SimParams settings = SimParams.fromFlags(options.dialect(), options.model(), options.engineFlags(), options.gpu());
        SimulatedEngine engine = SimulatedEngine.start(settings,
                new InetSocketAddress(options.host(), options.port()), options.seed());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            engine.close();
            stopped.countDown();
        }, "sim-shutdown"));
        out.println("simulated engine serving " + options.model() + " at " + engine.baseUri() + " (" + settings.gpu().name() + ", " + options.dialect()
                + " flags" + (settings.ignoredFlags().isEmpty() ? "" : "; without effect: "
                + String.join(" ", settings.ignoredFlags())) + ")");
        out.flush();
        stopped.await();
    }

    /**
     * Engine flags as one string each: {@code --max-num-seqs 128} becomes {@code --max-num-seqs=128}, as a
     * shell's argument list gives them to {@code vllm serve}; {@code --a=b} and switches stay as they are.
     */
    public static List<String> joinValues(List<String> args) {
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("-") || arg.contains("=")) {
                flags.add(arg);
                continue;
            }
            // every argument up to the next flag is a value: one, or the items of a list-valued flag (argparse's
            // nargs '+', as --lora-modules a=/x b=/y), joined by spaces as a study writes them (Flag#values)
            List<String> values = new ArrayList<>();
            while (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                values.add(args.get(++i));
            }
            flags.add(values.isEmpty() ? arg : arg + "=" + String.join(" ", values));
        }
        return flags;
    }
}
