package io.servebench.runner;

/** Entry point of {@code benchmarks.jar}. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.err.println("ServeBench: not wired yet");
        System.exit(2);
    }
}
