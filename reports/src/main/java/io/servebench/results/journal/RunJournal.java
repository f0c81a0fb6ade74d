package io.servebench.results.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servebench.results.BlockResult;
import io.servebench.results.ServerEnvironment;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code journal.jsonl}: one line of JSON per finished trial (a {@link BlockResult}), appended and
 * forced to disk before {@link #append} returns, so a crash loses at most the trial in flight. The first line,
 * {@code {"run": {...}}}, is the run's {@link RunHeader}; each server start adds one line
 * {@code {"server": {...}}} with its {@link ServerEnvironment} before its trials, and each repetition one line
 * {@code {"repetition": {...}}} as it ends ({@link JournalledRepetition}), so that a crash in a trial's third
 * repetition keeps its first two.
 *
 * <p>A crash during a write can leave a last line without its newline. {@link #read(Path)} ignores
 * such a line, and {@link #open(Path)} cuts it off before appending, so the file stays one complete
 * trial per line. A complete line that does not parse is corruption, not a crash, and is an error.
 */
public final class RunJournal implements Closeable {

    /** The journal's file name inside a run folder. */
    public static final String FILE_NAME = "journal.jsonl";

    /** The key of a server line. */
    static final String SERVER_KEY = "server";

    /** The key of the header line. */
    static final String RUN_KEY = "run";

    /** The key of a repetition line. */
    static final String REPETITION_KEY = "repetition";

    /**
     * Reads what it writes; a field a journal of an earlier ServeBench has and this one no longer records (the simulated
     * engine's error bar as a sentence, before stop 70) is passed over, so that such a run still resumes.
     */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path file;
    private final FileChannel channel;

    private RunJournal(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Opens (creating if needed) the journal of the run folder {@code runDir} for appending; an
     * unterminated last line left by a crash is cut off.
     */
    public static RunJournal open(Path runDir) throws IOException {
        return openFile(runDir.resolve(FILE_NAME));
    }

    /**
     * Opens (creating if needed) a journal file of another name, as {@link #open(Path)} opens a run folder's: one
     * writer's own journal (a SLURM job's), to be merged into its run's by whoever started it.
     */
    public static RunJournal openFile(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            // one writer at a time, before anything is cut off: the other's last line may be half written
            if (!mayAppend(channel)) {
                throw new InUse(file);
            }
            long complete = completeLength(channel);
            if (complete < channel.size()) {
                channel.truncate(complete);
                channel.force(true);
            }
            channel.position(complete);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return new RunJournal(file, channel);
    }

    /**
     * Whether this process may append: it now holds the journal's lock, or the file system keeps none (an NFS mount
     * without its lock service answers ENOLCK): there the run goes on unguarded, as it did before journals were locked.
     */
    private static boolean mayAppend(FileChannel channel) {
        try {
            return channel.tryLock() != null;
        } catch (OverlappingFileLockException e) {
            return false;
        } catch (IOException noLocks) {
            return true;
        }
    }

    /**
     * The journal is open for appending in another process (its lock, which the operating system lets go when that
     * process ends, however it ends): a run still going in the same folder, or one started in it at the same moment.
     */
    public static final class InUse extends IOException {
        private static final long serialVersionUID = 1L;

        InUse(Path file) {
            super(file + " is being written by another ServeBench run (a run still going in this folder, or one started"
                    + " in it at the same moment); wait for it to end (--resume then continues it), or write this run to"
                    + " another folder with -o");
        }
    }

    /** The journal file. */
    public Path file() {
        return file;
    }

    /** Appends one finished trial and forces it to disk (data and metadata) before returning. */
    public synchronized void append(BlockResult trial) throws IOException {
        String line;
        try {
            line = MAPPER.writeValueAsString(trial) + "\n";
        } catch (JsonProcessingException e) {
            throw new IOException("could not serialise trial " + trial.benchmark() + " for " + file, e);
        }
        write(line);
    }

    /** Appends the environment of a server that just started, forced to disk like a trial. */
    public synchronized void append(ServerEnvironment server) throws IOException {
        write(MAPPER.writeValueAsString(Map.of(SERVER_KEY, server)) + "\n");
    }

    /** Appends a repetition that just ended, forced to disk like a trial. */
    public synchronized void append(JournalledRepetition repetition) throws IOException {
        write(MAPPER.writeValueAsString(Map.of(REPETITION_KEY, repetition)) + "\n");
    }

    /** Appends the run's header, forced to disk like a trial; the first line of a new journal. */
    public synchronized void append(RunHeader header) throws IOException {
        write(MAPPER.writeValueAsString(Map.of(RUN_KEY, header)) + "\n");
    }

    /** Whether the journal holds no line yet. */
    public synchronized boolean isEmpty() throws IOException {
        return channel.size() == 0;
    }

    /**
     * Writes {@code line} and forces it to disk; a write that fails (a full disk) is cut off again, so that the journal
     * stays complete lines, and the failure names the journal.
     */
    private void write(String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        long start = channel.position();
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        } catch (IOException e) {
            IOException named = new IOException("cannot append to " + file + ": " + e.getMessage(), e);
            try {
                channel.truncate(start);
                channel.position(start);
            } catch (IOException truncation) {
                // open() cuts an unterminated last line off in any case
                named.addSuppressed(truncation);
            }
            throw named;
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }

    /**
     * Reads the trials of a journal, in the order they were appended. {@code path} is the journal
     * file or the run folder holding it; a missing journal reads as no trials.
     *
     * @throws IOException when a complete line is not a trial, naming the file and line number
     */
    public static List<BlockResult> read(Path path) throws IOException {
        List<BlockResult> trials = new ArrayList<>();
        for (Entry entry : readEntries(path)) {
            if (entry.block() != null) {
                trials.add(entry.block());
            }
        }
        return trials;
    }

    /**
     * One line about a trial, in journal order: a block at the trial's end, or one of its repetitions as it ended.
     * Exactly one is set.
     */
    public record Entry(BlockResult block, JournalledRepetition repetition) {
    }

    /**
     * The block and repetition lines of a journal, in the order they were appended: whether a trial's repetitions came
     * after its last block line tells that it was running when the harness stopped.
     *
     * @throws IOException when a complete line is neither, naming the file and line number
     */
    public static List<Entry> readEntries(Path path) throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (Line line : completeLines(path)) {
            if (line.isServer() || line.isHeader()) {
                continue;
            }
            try {
                entries.add(line.isRepetition()
                        ? new Entry(null, MAPPER.treeToValue(MAPPER.readTree(line.text()).get(REPETITION_KEY),
                                JournalledRepetition.class))
                        : new Entry(MAPPER.readValue(line.text(), BlockResult.class), null));
            } catch (JsonProcessingException e) {
                throw new IOException(line.where() + " is not a trial result: " + e.getOriginalMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new IOException(line.where() + " is not a valid trial result: " + e.getMessage(), e);
            }
        }
        return entries;
    }

    /** The server environments of a journal, in the order the servers started. */
    public static List<ServerEnvironment> readServers(Path path) throws IOException {
        List<ServerEnvironment> servers = new ArrayList<>();
        for (Line line : completeLines(path)) {
            if (line.isServer()) {
                try {
                    servers.add(MAPPER.treeToValue(MAPPER.readTree(line.text()).get(SERVER_KEY), ServerEnvironment.class));
                } catch (JsonProcessingException e) {
                    throw new IOException(line.where() + " is not a server environment: " + e.getOriginalMessage(), e);
                }
            }
        }
        return servers;
    }

    /**
     * The header of a journal; empty when it has none (no journal, or one from before headers were written).
     *
     * @throws IOException when the header line does not parse, naming the file
     */
    public static Optional<RunHeader> readHeader(Path path) throws IOException {
        for (Line line : completeLines(path)) {
            if (line.isHeader()) {
                try {
                    return Optional.of(MAPPER.treeToValue(MAPPER.readTree(line.text()).get(RUN_KEY), RunHeader.class));
                } catch (JsonProcessingException | IllegalArgumentException e) {
                    throw new IOException(line.where() + " is not a run header: " + e.getMessage(), e);
                }
            }
        }
        return Optional.empty();
    }

    private record Line(Path file, int number, String text) {
        boolean isServer() {
            return text.startsWith("{\"" + SERVER_KEY + "\":");
        }

        boolean isHeader() {
            return text.startsWith("{\"" + RUN_KEY + "\":");
        }

        boolean isRepetition() {
            return text.startsWith("{\"" + REPETITION_KEY + "\":");
        }

        String where() {
            return file + " line " + number;
        }
    }

    /** The journal's non-empty lines that end in a newline; what follows the last newline was cut short by a crash. */
    private static List<Line> completeLines(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(FILE_NAME) : path;
        if (!Files.exists(file)) {
            return List.of();
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<Line> lines = new ArrayList<>();
        int lineNumber = 0;
        int start = 0;
        for (int newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
            lineNumber++;
            String line = text.substring(start, newline).strip();
            start = newline + 1;
            if (!line.isEmpty()) {
                lines.add(new Line(file, lineNumber, line));
            }
        }
        return lines;
    }

    /** Length of the file up to and including its last newline (0 when it has none). */
    private static long completeLength(FileChannel channel) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long end = channel.size();
        while (end > 0) {
            long from = Math.max(0, end - chunk.capacity());
            chunk.clear().limit((int) (end - from));
            while (chunk.hasRemaining()) {
                if (channel.read(chunk, from + chunk.position()) < 0) {
                    throw new IOException("journal shrank while being read");
                }
            }
            for (int i = chunk.limit() - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    return from + i + 1;
                }
            }
            end = from;
        }
        return 0;
    }
}
