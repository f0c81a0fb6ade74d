/**
 * Rendering: {@code summary.md} and {@code report.html} (inline CSS and SVG charts, no script) in a
 * {@link io.servebench.reports.ReportLanguage} whose words are a message table ({@code messages_en.properties},
 * {@code messages_zh_CN.properties}). {@code ReportContent} decides what the text reports say (the optimization
 * summary, the recommendation, the cross-rate tables, each block in the reference layout and in
 * {@code vllm bench serve}'s, its notes and warnings); the writers add the markup.
 * {@link io.servebench.reports.ResultFormats} gives the {@link io.servebench.results.ResultFormat} of each
 * {@link io.servebench.reports.ResultFormatType}; everything else is package-private.
 *
 * <p>Depends on every other package of this module; nothing here is read back.
 */
package io.servebench.reports;
