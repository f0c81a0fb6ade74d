/**
 * The run journal, {@code journal.jsonl}: one line per finished result block and per server start, appended and
 * forced to disk at once, so a crash loses at most the trial in flight.
 *
 * <p>Depends on the result model only.
 */
package io.servebench.results.journal;
