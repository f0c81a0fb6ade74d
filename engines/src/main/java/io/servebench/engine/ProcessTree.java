package io.servebench.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stops a process and everything it started: engines fork workers (vLLM's engine core, SGLang's
 * scheduler and detokenizer, a container runtime's shim), and a worker left behind keeps the GPU and
 * the port. SIGTERM to the whole tree, a grace period, then SIGKILL to whatever is left.
 */
final class ProcessTree {

    private ProcessTree() {
    }

    /**
     * Stops {@code root} and its descendants.
     *
     * @return whether every process ended within the grace period (false: some needed SIGKILL)
     */
    public static boolean stop(ProcessHandle root, Duration grace) {
        // Take the tree before signalling: once the root dies its children are re-parented and lost to descendants().
        List<ProcessHandle> tree = snapshot(root);
        tree.forEach(ProcessHandle::destroy);
        if (awaitExit(tree, grace)) {
            return true;
        }
        List<ProcessHandle> left = new ArrayList<>();
        for (ProcessHandle p : tree) {
            if (p.isAlive()) {
                left.addAll(snapshot(p));
            }
        }
        left.forEach(ProcessHandle::destroyForcibly);
        awaitExit(left, Duration.ofSeconds(10));
        return false;
    }

    /** The process and all its living descendants, parents first. */
    static List<ProcessHandle> snapshot(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        return tree;
    }

    private static boolean awaitExit(List<ProcessHandle> processes, Duration timeout) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for processes to exit failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
