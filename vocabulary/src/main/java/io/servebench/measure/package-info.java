/**
 * What a trial measures, by name: the catalogue of metrics ({@link io.servebench.measure.Metric}: ids, labels and
 * units, DESIGN.md's definitions), the statistics taken of a distribution ({@link io.servebench.measure.Stat}) and the
 * service-level objectives a request is held to ({@link io.servebench.measure.SloParams}). The study model checks
 * names against them, the metrics aggregate under them and the result model keys its figures by them.
 *
 * <p>Imports nothing of ServeBench.
 */
package io.servebench.measure;
