package io.servebench.runner;

import io.servebench.load.RequestRecord;
import io.servebench.load.RequestRecordReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What the runner's tests read back from a run's folder. */
public final class RunFolderRecords {

    private RunFolderRecords() {
    }

    /** The per-request records of a run of one trial, by request id. */
    public static List<RequestRecord> onlyTrialsRecords(Path out) throws IOException {
        Path requests;
        try (var files = Files.list(out.resolve("requests"))) {
            requests = files.findFirst().orElseThrow();
        }
        List<RequestRecord> records = new ArrayList<>(RequestRecordReader.read(requests));
        records.sort(Comparator.comparingLong(RequestRecord::id));
        return records;
    }
}
