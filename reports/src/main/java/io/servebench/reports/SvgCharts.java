package io.servebench.reports;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts drawn from numbers, for a report that renders offline: line charts (one
 * polyline per series, optionally as steps for CDFs) and horizontal bars with error bars. Colours
 * are the Okabe–Ito palette, which stays distinct under the common colour-vision deficiencies;
 * past eight series the line dash tells them apart too.
 */
final class SvgCharts {

    /** Okabe–Ito, ordered so that the first colours contrast most on white (yellow last). */
    static final List<String> PALETTE = List.of("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
            "#000000", "#F0E442");
    private static final List<String> DASHES = List.of("", "7 4", "2 3", "9 3 2 3");

    private static final int WIDTH = 760;
    private static final int HEIGHT = 360;
    private static final int LEFT = 72;
    private static final int RIGHT = 20;
    private static final int TOP = 16;
    private static final int BOTTOM = 52;

    /**
     * A named line.
     *
     * @param name   the legend text
     * @param points {@code {x, y}} pairs in increasing x
     */
    record Series(String name, List<double[]> points) {
    }

    /**
     * A bar.
     *
     * @param label   the text left of the bar
     * @param value   its length
     * @param error   the error bar's half-width, NaN for none
     * @param tooltip what hovering the bar says
     */
    record Bar(String label, double value, double error, String tooltip) {
    }

    private SvgCharts() {
    }

    static String colour(int series) {
        return PALETTE.get(series % PALETTE.size());
    }

    static String dash(int series) {
        return DASHES.get(series / PALETTE.size() % DASHES.size());
    }

    /**
     * A line chart with axes from 0 (or below, for negative data) to the data's maximum, x capped at
     * {@code xMax} when that is finite. {@code steps} draws each series as a staircase (a CDF).
     */
    static String lines(List<Series> series, String xLabel, String yLabel, double xMax, boolean steps, String title) {
        double xHi = Double.isFinite(xMax) ? xMax : series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0])
                .max().orElse(1);
        double yHi = series.stream().flatMap(s -> s.points().stream()).filter(p -> p[0] <= xHi).mapToDouble(p -> p[1])
                .max().orElse(1);
        double xLo = Math.min(0, series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).min().orElse(0));
        // whole-numbered x (turns, request rates) gets whole ticks: no turn 1.5
        boolean whole = series.stream().flatMap(s -> s.points().stream()).allMatch(p -> p[0] == Math.rint(p[0]));
        Axis x = whole ? Axis.whole(xLo, xHi) : Axis.of(xLo, xHi);
        Axis y = Axis.of(0, yHi);
        StringBuilder svg = open(HEIGHT, title);
        frame(svg, x, y, xLabel, yLabel);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            StringBuilder path = new StringBuilder();
            double[] previous = null;
            for (double[] p : s.points()) {
                if (p[0] > xHi) {
                    // cut at the axis end: the staircase runs on flat to the edge
                    if (steps && previous != null) {
                        path.append(String.format(Locale.ROOT, "%.1f,%.1f", px(x, xHi), py(y, previous[1])));
                    }
                    break;
                }
                if (steps && previous != null) {
                    path.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, p[0]), py(y, previous[1])));
                }
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, p[0]), py(y, p[1])));
                previous = p;
            }
            svg.append(String.format(Locale.ROOT, "<g><polyline fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\"%s points=\"%s\"><title>%s</title></polyline>", colour(i), dash(i).isEmpty() ? "" : " stroke-dasharray=\"" + dash(i) + "\"", path.toString().strip(),
                    Html.escape(s.name())));
            if (!steps) {
                for (double[] p : s.points().stream().filter(p -> p[0] <= xHi).toList()) {
                    svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: "
                            + "%s, %s</title></circle>", px(x, p[0]), py(y, p[1]), colour(i), Html.escape(s.name()),
                            Numbers.format(p[0]), Numbers.format(p[1])));
                }
            }
            svg.append("</g>");
        }
        return svg.append("</svg>").toString();
    }

    /** Horizontal bars from 0, one per row, each with its error bar when it has one and its value written after it. */
    static String bars(List<Bar> bars, String xLabel, String title) {
        final int labelWidth = 250;
        final int row = 30;
        int height = TOP + row * bars.size() + BOTTOM;
        double hi = bars.stream().mapToDouble(b -> b.value() + (Double.isNaN(b.error()) ? 0 : b.error())).max().orElse(1);
        Axis x = Axis.of(0, hi * 1.12);
        StringBuilder svg = open(height, title);
        double plotWidth = WIDTH - labelWidth - RIGHT;
        for (double t : x.ticks()) {
            double tx = labelWidth + plotWidth * (t - x.lo()) / (x.hi() - x.lo());
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", tx, TOP, tx, height - BOTTOM, tx,
                    height - BOTTOM + 18, x.label(t)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">%s</text>",
                labelWidth + plotWidth / 2, height - 10, Html.escape(xLabel)));
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            double y0 = TOP + row * i + 5;
            double w = plotWidth * b.value() / (x.hi() - x.lo());
            svg.append(String.format(Locale.ROOT, "<g><title>%s</title><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>"
                    + "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"%s\"/>", Html.escape(b.tooltip()),
                    labelWidth - 8, y0 + 15, Html.escape(b.label()), labelWidth, y0, w, colour(i)));
            double end = labelWidth + w;
            if (!Double.isNaN(b.error())) {
                double lo = labelWidth + plotWidth * Math.max(0, b.value() - b.error()) / (x.hi() - x.lo());
                end = labelWidth + plotWidth * (b.value() + b.error()) / (x.hi() - x.lo());
                svg.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
                        + "stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"/>", lo, y0 + 10, end, lo, y0 + 4, y0 + 16, end,
                        y0 + 4, y0 + 16));
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text></g>", end + 6, y0 + 15,
                    Numbers.format(b.value())));
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\"/>", labelWidth,
                TOP, labelWidth, height - BOTTOM));
        return svg.append("</svg>").toString();
    }

    /**
     * Panels stacked on one time axis, one per series, each with its own y axis from 0 named by the series' name: for
     * quantities of different units over the same span (power, utilisation, request rate). A point whose y is NaN is a
     * gap in the line.
     */
    static String panels(List<Series> panels, String xLabel, String title) {
        final int panel = 120;
        final int gap = 14;
        int height = TOP + panels.size() * (panel + gap) - gap + BOTTOM;
        double xHi = panels.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).max().orElse(1);
        Axis x = Axis.of(0, xHi);
        StringBuilder svg = open(height, title);
        for (int k = 0; k < panels.size(); k++) {
            Series s = panels.get(k);
            int top = TOP + k * (panel + gap);
            int bottom = top + panel;
            Axis y = Axis.of(0, s.points().stream().mapToDouble(p -> p[1]).filter(Double::isFinite).max().orElse(1));
            java.util.function.DoubleUnaryOperator py = v -> bottom - panel * (v - y.lo()) / (y.hi() - y.lo());
            for (double t : x.ticks()) {
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>",
                        px(x, t), top, px(x, t), bottom));
            }
            for (double t : List.of(y.lo(), y.hi())) {
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                        + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT, py.applyAsDouble(t), WIDTH - RIGHT,
                        py.applyAsDouble(t), LEFT - 6, py.applyAsDouble(t) + 4, y.label(t)));
            }
            svg.append(String.format(Locale.ROOT, "<path d=\"M%d %dV%dH%d\" stroke=\"#222\" fill=\"none\"/>", LEFT, top,
                    bottom, WIDTH - RIGHT));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"axis\">%s</text>",
                    WIDTH - RIGHT - 6, top + 14, Html.escape(s.name())));
            StringBuilder path = new StringBuilder();
            for (double[] p : s.points()) {
                if (Double.isNaN(p[1])) {
                    line(svg, path, colour(k), s.name());
                    continue;
                }
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, p[0]), py.applyAsDouble(p[1])));
            }
            line(svg, path, colour(k), s.name());
        }
        int axisY = height - BOTTOM;
        for (double t : x.ticks()) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px(x, t),
                    axisY + 18, x.label(t)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">%s</text>",
                LEFT + (WIDTH - LEFT - RIGHT) / 2, height - 10, Html.escape(xLabel)));
        return svg.append("</svg>").toString();
    }

    /**
     * A block's requests as horizontal bars, one row each in intended-send order: the wait between intended and actual
     * send, the wait for the first token, the stream to its end (or to the failure or cancellation), and the long gaps
     * between token events over it. Each kind is one path of segments, so that a thousand requests stay small.
     *
     * @param names   the legend texts of: send wait, first-token wait, streaming, failed, cancelled, long gap
     */
    static String timeline(io.servebench.results.RequestTimeline t, List<String> names, String xLabel, String title) {
        int n = t.requests().size();
        double row = Math.max(1, Math.min(8, 600.0 / Math.max(1, n)));
        int height = (int) Math.ceil(TOP + n * row + BOTTOM);
        double xHi = t.requests().stream().mapToDouble(io.servebench.results.RequestTimeline.Request::end).max().orElse(1);
        Axis x = Axis.of(0, xHi);
        StringBuilder svg = open(height, title);
        int bottom = height - BOTTOM;
        for (double tick : x.ticks()) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px(x, tick), TOP, px(x, tick), bottom,
                    px(x, tick), bottom + 18, x.label(tick)));
        }
        List<StringBuilder> paths = new java.util.ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            paths.add(new StringBuilder());
        }
        for (int i = 0; i < n; i++) {
            io.servebench.results.RequestTimeline.Request r = t.requests().get(i);
            double y = TOP + (i + 0.5) * row;
            segment(paths.get(0), x, y, r.intended(), r.sent());
            boolean answered = !Double.isNaN(r.firstToken());
            int tail = switch (r.outcome()) {
                case SUCCEEDED -> 2;
                case FAILED -> 3;
                case CANCELLED -> 4;
            };
            if (answered) {
                segment(paths.get(1), x, y, r.sent(), r.firstToken());
                segment(paths.get(tail), x, y, r.firstToken(), r.end());
            } else {
                segment(paths.get(tail == 2 ? 1 : tail), x, y, r.sent(), r.end());
            }
            for (int g = 0; g + 1 < r.longGaps().size(); g += 2) {
                segment(paths.get(5), x, y, r.longGaps().get(g), r.longGaps().get(g + 1));
            }
        }
        List<String> colours = timelineColours();
        for (int i = 0; i < paths.size(); i++) {
            if (paths.get(i).length() > 0) {
                svg.append(String.format(Locale.ROOT, "<path d=\"%s\" stroke=\"%s\" stroke-width=\"%.2f\" fill=\"none\">"
                        + "<title>%s</title></path>", paths.get(i).toString().strip(), colours.get(i), row * 0.8,
                        Html.escape(names.get(i))));
            }
        }
        svg.append(String.format(Locale.ROOT, "<path d=\"M%d %dV%dH%d\" stroke=\"#222\" fill=\"none\"/>", LEFT, TOP,
                bottom, WIDTH - RIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">%s</text>",
                LEFT + (WIDTH - LEFT - RIGHT) / 2, height - 10, Html.escape(xLabel)));
        return svg.append("</svg>").toString();
    }

    /** The colours of {@link #timeline}'s kinds, in its names' order, for a legend. */
    static List<String> timelineColours() {
        return List.of("#bbbbbb", PALETTE.get(1), PALETTE.get(0), PALETTE.get(3), PALETTE.get(4), "#000000");
    }

    /** A horizontal segment from {@code from} to {@code to} (s) at {@code y}, when it has a length. */
    private static void segment(StringBuilder path, Axis x, double y, double from, double to) {
        if (to > from) {
            path.append(String.format(Locale.ROOT, "M%.1f %.1fH%.1f", px(x, from), y, Math.max(px(x, to), px(x, from) + 0.5)));
        }
    }

    /** Draws {@code path}'s points as one line, if it has two or more, and empties it. */
    private static void line(StringBuilder svg, StringBuilder path, String colour, String name) {
        String points = path.toString().strip();
        if (points.contains(" ")) {
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\">"
                    + "<title>%s</title></polyline>", colour, points, Html.escape(name)));
        }
        path.setLength(0);
    }

    private static StringBuilder open(int height, String title) {
        return new StringBuilder(String.format(Locale.ROOT, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">",
                WIDTH, height, Html.escape(title)));
    }

    private static void frame(StringBuilder svg, Axis x, Axis y, String xLabel, String yLabel) {
        for (double t : x.ticks()) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px(x, t), TOP, px(x, t), HEIGHT - BOTTOM,
                    px(x, t), HEIGHT - BOTTOM + 18, x.label(t)));
        }
        for (double t : y.ticks()) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT, py(y, t), WIDTH - RIGHT, py(y, t),
                    LEFT - 6, py(y, t) + 4, y.label(t)));
        }
        svg.append(String.format(Locale.ROOT, "<path d=\"M%d %dV%dH%d\" stroke=\"#222\" fill=\"none\"/>", LEFT, TOP,
                HEIGHT - BOTTOM, WIDTH - RIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">%s</text>",
                LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 10, Html.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\" "
                + "class=\"axis\">%s</text>", TOP + (HEIGHT - TOP - BOTTOM) / 2, Html.escape(yLabel)));
    }

    private static double px(Axis x, double v) {
        return LEFT + (WIDTH - LEFT - RIGHT) * (v - x.lo()) / (x.hi() - x.lo());
    }

    private static double py(Axis y, double v) {
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (v - y.lo()) / (y.hi() - y.lo());
    }

    /** An axis from {@code lo} to {@code hi} on multiples of a step of 1, 2 or 5 × 10^k (about 5 ticks). */
    record Axis(double lo, double hi, double step) {

        static Axis of(double min, double max) {
            double range = max - min;
            if (!(range > 0) || !Double.isFinite(range)) {
                range = Math.abs(max) > 0 && Double.isFinite(max) ? Math.abs(max) : 1;
            }
            double raw = range / 5;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double step = raw / magnitude < 1.5 ? magnitude : raw / magnitude < 3.5 ? 2 * magnitude
                    : raw / magnitude < 7.5 ? 5 * magnitude : 10 * magnitude;
            double lo = Math.floor(min / step) * step;
            double hi = Math.max(lo + step, Math.ceil(max / step) * step);
            return new Axis(lo, hi, step);
        }

        /** {@link #of} with a step of at least 1, for values that are whole numbers. */
        static Axis whole(double min, double max) {
            Axis a = of(min, max);
            if (a.step >= 1) {
                return a;
            }
            return new Axis(Math.floor(min), Math.max(Math.floor(min) + 1, Math.ceil(max)), 1);
        }

        List<Double> ticks() {
            int n = (int) Math.round((hi - lo) / step);
            return java.util.stream.IntStream.rangeClosed(0, n).mapToObj(i -> lo + i * step).toList();
        }

        /** A tick's value with the decimals its step needs (0.2, not 0.20000000000000001). */
        String label(double v) {
            int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
            return new BigDecimal(v).setScale(decimals, java.math.RoundingMode.HALF_EVEN).toPlainString();
        }
    }
}
