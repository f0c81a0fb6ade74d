package io.servebench.engine;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The last lines of an engine's log, to put into an error message where the user needs them. */
public final class LogTail {

    /** Lines an error message shows. */
    public static final int LINES = 20;
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** The last {@code lines} lines of {@code log} (at most the last 64 KiB of it), or a note when it cannot be read. */
    public static List<String> of(Path log, int lines) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long length = file.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[size];
            file.seek(length - size);
            file.readFully(bytes);
            List<String> all = new ArrayList<>(Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n")));
            if (size < length && !all.isEmpty()) {
                all.remove(0);
            }
            return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return List.of("(cannot read " + log + ": " + e.getMessage() + ")");
        }
    }

    /**
     * The log's last line with text, as a terminal would show it (the part after a progress bar's last carriage return,
     * as in "Loading safetensors checkpoint shards:  45% ..."), at most {@code max} characters; empty when there is none.
     */
    public static String lastLine(Path log, int max) {
        List<String> tail = of(log, 5);
        for (int i = tail.size() - 1; i >= 0; i--) {
            String[] segments = tail.get(i).split("\r");
            for (int j = segments.length - 1; j >= 0; j--) {
                String text = segments[j].strip();
                if (!text.isEmpty()) {
                    return text.length() <= max ? text : text.substring(0, max - 3) + "...";
                }
            }
        }
        return "";
    }

    /** "see LOG; its last lines:\n  ..." for error messages. */
    public static String describe(Path log) {
        List<String> tail = of(log, LINES);
        StringBuilder sb = new StringBuilder("see ").append(log);
        if (tail.isEmpty() || tail.size() == 1 && tail.get(0).isEmpty()) {
            return sb.append(" (empty)").toString();
        }
        sb.append("; its last lines:");
        tail.forEach(line -> sb.append(System.lineSeparator()).append("  | ").append(line));
        return sb.toString();
    }
}
