package io.servebench.engine.kind;


import java.util.List;
import java.util.Objects;

/**
 * How a study's engine is started, beyond its kind and flags: the {@code @Engine} attributes
 * {@code executable}, {@code env}, {@code workdir}, {@code command}, {@code url} and {@code image},
 * as written ({@code ""} and empty lists when not given).
 *
 * @param executable the program to run instead of the kind's default
 * @param env        environment entries, each {@code NAME=value}, or a bare {@code NAME}: ServeBench's own variable of
 *                   that name handed on ({@link #handedOn}), the way to give an engine a secret, which a study never
 *                   writes
 * @param workdir    the engine's working directory
 * @param command    kind {@code command}: the argument list with {@code {port}}, {@code {host}}, {@code {model}}
 * @param url        kind {@code endpoint}: the running server's base URL
 * @param image      the container image to run the engine in
 */
public record EngineSetup(String executable, List<String> env, String workdir, List<String> command, String url,
                          String image) {

    /** Nothing beyond the kind's defaults. */
    public static final EngineSetup NONE = new EngineSetup("", List.of(), "", List.of(), "", "");

    public EngineSetup {
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(workdir, "workdir");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(image, "image");
        env = List.copyOf(env);
        command = List.copyOf(command);
    }

    /**
     * The base URLs of {@link #url()}: none, one, or several separated by spaces or commas, the replicas of one engine
     * that the load is spread over.
     */
    public List<String> urls() {
        return java.util.Arrays.stream(url.strip().split("[\\s,]+")).filter(u -> !u.isEmpty()).toList();
    }

    /** The variable an environment entry sets: {@code NAME} of {@code NAME=value}, or the bare name. */
    public static String variable(String entry) {
        int eq = entry.indexOf('=');
        return eq < 0 ? entry : entry.substring(0, eq);
    }

    /**
     * Whether an environment entry is a bare {@code NAME}: the engine gets ServeBench's own value of it (a process
     * inherits it; a container is run with {@code -e NAME}, which its runtime fills in from its own environment).
     */
    public static boolean handedOn(String entry) {
        return entry.indexOf('=') < 0;
    }

    /**
     * This setup with the command line's overrides: a non-empty executable, working directory or URL
     * replaces this one's, and each entry of {@code env} replaces the entry of its variable or is added.
     */
    public EngineSetup overriddenBy(String executable, List<String> env, String workdir, String url) {
        java.util.Map<String, String> merged = new java.util.LinkedHashMap<>();
        for (String entry : this.env) {
            merged.put(variable(entry), entry);
        }
        for (String entry : env) {
            merged.put(variable(entry), entry);
        }
        return new EngineSetup(executable.isEmpty() ? this.executable : executable, List.copyOf(merged.values()),
                workdir.isEmpty() ? this.workdir : workdir, command, url.isEmpty() ? this.url : url, image);
    }

    /**
     * What a variant that switches to another engine kind keeps: the environment and working directory
     * (the machine's), not the executable, command, URL or image (the other kind's).
     */
    public EngineSetup forOtherKind() {
        return new EngineSetup("", env, workdir, List.of(), "", "");
    }
}
