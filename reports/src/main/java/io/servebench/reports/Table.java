package io.servebench.reports;

import java.util.List;

/**
 * A table of plain text cells, as the markdown and HTML writers both render it.
 *
 * @param header the column names
 * @param rows   the rows, each with one cell per column
 */
record Table(List<String> header, List<List<String>> rows) {

    public Table {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
        for (List<String> row : rows) {
            if (row.size() != header.size()) {
                throw new IllegalArgumentException("table row " + row + " has " + row.size() + " cells; expected "
                        + header.size() + " as the header " + header);
            }
        }
    }
}
