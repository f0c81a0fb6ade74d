package io.servebench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.workload.Datasets;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A process that sends one share of a load spread over several ({@link LoadWorkers}): started by the coordinator, it
 * reads its {@link WorkerJob} from the first line of its input, says {@code ready}, waits for {@code start <t0>} and
 * sends its share counted from that instant; it writes each send and each record as a line as they come and its
 * result last. {@code stop <why>} from the coordinator, or the end of its input (the coordinator is gone, even killed),
 * calls off what it has in flight and ends it: a worker never outlives its coordinator's pipe.
 */
public final class LoadWorker {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How often what the worker wrote reaches the coordinator at the latest, ms. */
    private static final long FLUSH_MS = 5;

    private LoadWorker() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String first = in.readLine();
        if (first == null) {
            return;
        }
        WorkerJob job = JSON.readValue(first, WorkerJob.class);
        LoadParams params = job.params(System.getenv(LoadWorkers.API_KEY_ENV));
        DeltaTokenCounter counter = job.dataset() == null ? DeltaTokenCounter.ONE_PER_EVENT
                : Datasets.tokenizer(job.dataset()).map(DeltaTokenCounter::of).orElse(DeltaTokenCounter.ONE_PER_EVENT);
        Lines lines = new Lines(out);
        lines.write(LoadWorkers.READY + LoadWorkers.host());
        lines.flush();
        // on another machine the coordinator reads this one's clock first: each "t" is answered with it at once
        String start = in.readLine();
        while (LoadWorkers.CLOCK.equals(start)) {
            lines.write(LoadWorkers.CLOCK + " " + System.nanoTime());
            lines.flush();
            start = in.readLine();
        }
        if (start == null || !start.startsWith(LoadWorkers.START)) {
            return;
        }
        long t0 = Long.parseLong(start.substring(LoadWorkers.START.length()).strip());
        Interruption interruption = new Interruption();
        Thread orders = new Thread(() -> listen(in, interruption), "servebench-load-worker-input");
        orders.setDaemon(true);
        orders.start();
        Thread flusher = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(FLUSH_MS);
                } catch (InterruptedException e) {
                    return;
                }
                lines.flush();
            }
        }, "servebench-load-worker-flush");
        flusher.setDaemon(true);
        flusher.start();
        LoadResult result;
        try (ListenerThread listeners = new ListenerThread(lines)) {
            result = new LoadGenerator(counter).startingAt(t0).run(job.targets(), new Spread(job.weights()),
                    job.specs().iterator(), job.warmups(), job.specs().size() - job.warmups(), params, listeners,
                    interruption);
            listeners.drain();
        }
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            lines.write(LoadWorkers.CPU + os.getProcessCpuTime());
        }
        lines.write(LoadWorkers.END + JSON.writeValueAsString(result));
        lines.flush();
        flusher.interrupt();
    }

    /** The coordinator's orders after the start: a stop, or the end of the pipe, which is one too. */
    private static void listen(BufferedReader in, Interruption interruption) {
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith(LoadWorkers.STOP)) {
                    interruption.interrupt(line.substring(LoadWorkers.STOP.length()));
                }
            }
        } catch (IOException e) {
            // a broken pipe is a coordinator gone, as the end of it is
        }
        if (!interruption.interrupted()) {
            interruption.interrupt("the load's coordinator went away");
            // nobody reads what is left to say: end at once, calling off the streams with the process
            Runtime.getRuntime().halt(1);
        }
    }

    /** Sends and records as lines, written from the listener thread and flushed from a thread of their own. */
    private static final class Lines implements LoadListener {
        private final BufferedWriter out;

        Lines(BufferedWriter out) {
            this.out = out;
        }

        @Override
        public void onSend(long id, long handedOverNs) {
            write(LoadWorkers.SENT + id + ' ' + handedOverNs);
        }

        @Override
        public void onComplete(RequestRecord record) {
            write(LoadWorkers.RECORD + RequestRecordWriter.line(record));
        }

        synchronized void write(String line) {
            try {
                out.write(line);
                out.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException("the load's coordinator stopped reading", e);
            }
        }

        synchronized void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                // the coordinator is gone: its pipe's end stops this worker
            }
        }
    }
}
