package io.servebench.engine;

import io.servebench.engine.kind.ShellWords;
import io.servebench.engine.kind.Redaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A process to start for an engine: the argument list (never a shell string), the environment
 * entries to add to the harness's own, the working directory, and the port the server will listen
 * on.
 *
 * @param argv    the program and its arguments
 * @param env     variables added to the inherited environment
 * @param workdir the working directory, {@code null} for the harness's
 * @param port    the port the command makes the server listen on, on 127.0.0.1
 * @param cleanup a command to run after the process stopped, e.g. removing its container even if the
 *                container runtime's client was killed; empty for none
 */
record LaunchCommand(List<String> argv, Map<String, String> env, Path workdir, int port, List<String> cleanup) {

    public LaunchCommand {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("an engine command needs at least the program to run");
        }
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
        cleanup = List.copyOf(cleanup);
    }

    public LaunchCommand(List<String> argv, Map<String, String> env, Path workdir, int port) {
        this(argv, env, workdir, port, List.of());
    }

    /** This command with {@code more} arguments at the end. */
    LaunchCommand plus(List<String> more) {
        List<String> all = new java.util.ArrayList<>(argv);
        all.addAll(more);
        return new LaunchCommand(all, env, workdir, port, cleanup);
    }

    /** The command line as logs and reports show it: secrets masked, arguments with spaces quoted. */
    public String display() {
        StringBuilder sb = new StringBuilder();
        Redaction.env(new java.util.TreeMap<>(env)).forEach((k, v) -> sb.append(k).append('=').append(ShellWords.quote(v))
                .append(' '));
        Redaction.args(argv).forEach(a -> sb.append(ShellWords.quote(a)).append(' '));
        return sb.toString().strip();
    }
}
