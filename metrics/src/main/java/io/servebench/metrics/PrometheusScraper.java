package io.servebench.metrics;

import io.servebench.wire.http.ControlClient;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an engine's Prometheus {@code /metrics}. A scrape never fails a trial: an engine without the
 * endpoint, an error status or a timeout give an empty result and a reason ({@link Result#problem()}).
 */
public final class PrometheusScraper {

    /** How long one scrape may take; a healthy engine answers in milliseconds. */
    public static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final ControlClient client = new ControlClient(TIMEOUT);

    /**
     * A scrape's outcome.
     *
     * @param snapshot what was read, empty on failure
     * @param problem  why nothing was read, {@code null} on success
     */
    public record Result(Optional<PrometheusSnapshot> snapshot, String problem) {
    }

    /** Scrapes {@code uri}; {@code null} means the engine has no metrics endpoint. */
    public Result scrape(URI uri) {
        return scrape(uri, "le");
    }

    /** Scrapes {@code uri} as {@link #scrape(URI)} does, keeping the label {@code kept} apart instead of {@code le}. */
    public Result scrape(URI uri, String kept) {
        return scrape(uri, text -> PrometheusSnapshot.parse(text, kept));
    }

    /** Scrapes {@code uri}, one value per value of the label {@code kept} ({@link PrometheusSnapshot#parseFirstPerLabel}). */
    public Result scrapeFirstPerLabel(URI uri, String kept) {
        return scrape(uri, text -> PrometheusSnapshot.parseFirstPerLabel(text, kept));
    }

    private Result scrape(URI uri, java.util.function.Function<String, PrometheusSnapshot> parse) {
        if (uri == null) {
            return new Result(Optional.empty(), "the engine has no Prometheus metrics endpoint");
        }
        try {
            ControlClient.Reply response = client.get(uri, Map.of(), TIMEOUT);
            if (response.status() != 200) {
                return new Result(Optional.empty(), "GET " + uri + " answered HTTP " + response.status());
            }
            return new Result(Optional.of(parse.apply(response.text())), null);
        } catch (IOException e) {
            return new Result(Optional.empty(), "GET " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(Optional.empty(), "GET " + uri + " was interrupted");
        }
    }
}
