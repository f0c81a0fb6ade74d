package io.servebench.load;

/**
 * Told about every request as it is handed over and as it finishes, e.g. to drive a progress bar or to aggregate the
 * records as they come instead of keeping them.
 *
 * <p>Called from the HTTP client's I/O threads, possibly concurrently: implementations must be
 * thread-safe and quick, since time spent here delays the reading of other responses.
 */
@FunctionalInterface
public interface LoadListener {

    /** A listener that ignores everything. */
    LoadListener NONE = record -> { };

    /**
     * A listener that tells each of {@code listeners} everything, in order; it asks the run to stop for the first that
     * does.
     */
    static LoadListener all(LoadListener... listeners) {
        java.util.List<LoadListener> each = java.util.List.of(listeners);
        return new LoadListener() {
            @Override
            public void onSend(long id) {
                each.forEach(l -> l.onSend(id));
            }

            @Override
            public void onSend(long id, long handedOverNs) {
                each.forEach(l -> l.onSend(id, handedOverNs));
            }

            @Override
            public void onComplete(RequestRecord record) {
                each.forEach(l -> l.onComplete(record));
            }

            @Override
            public java.util.Optional<String> stopReason() {
                return each.stream().map(LoadListener::stopReason).flatMap(java.util.Optional::stream).findFirst();
            }
        };
    }

    /**
     * The request {@code id} is about to be handed over: from now on it is in flight until {@link #onComplete}. Called
     * for every request, later turns of conversations included, before it can complete.
     */
    default void onSend(long id) {
    }

    /**
     * {@link #onSend(long)}, told later than it happened (by a {@link ListenerThread}) with the moment the request was
     * handed over ({@link System#nanoTime()}): what times the send, as an aggregation's watermark does, takes that
     * moment instead of its clock's now.
     */
    default void onSend(long id, long handedOverNs) {
        onSend(id);
    }

    /** {@code record} has finished, successfully or not (see {@link RequestRecord#succeeded()}). */
    void onComplete(RequestRecord record);

    /**
     * Why the run must stop sending (say, the records cannot be written any more: the disk is full), or empty to go
     * on; asked before every send. Requests in flight still finish.
     */
    default java.util.Optional<String> stopReason() {
        return java.util.Optional.empty();
    }
}
