package io.servebench.reports;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formatting shared by the text reports. */
final class Numbers {

    /** Shown for a metric that is absent (no samples), never a zero. */
    static final String ABSENT = "—";

    private Numbers() {
    }

    /**
     * Two decimals from 1 up (2.62, 130.18, 2197.17, as the reference study), three significant
     * digits below 1 (0.0123) so small latencies of a fast engine keep their precision.
     */
    static String format(double v) {
        if (Double.isNaN(v)) {
            return ABSENT;
        }
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A round value as written, to 4 significant digits and no trailing zeros: a histogram's bound (60, 0.1, 2500). */
    static String bound(double v) {
        return v == 0 ? "0" : new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /**
     * {@code v} with the decimals that {@link #format(double)} gives {@code scale}, so a difference
     * reads like the values it is taken between ("+0.07 s" next to "2.62 s", not "+0.0700 s").
     */
    static String formatLike(double v, double scale) {
        if (Double.isNaN(v)) {
            return ABSENT;
        }
        double s = Math.abs(scale);
        int decimals = s >= 1 || s == 0 ? 2 : 2 - (int) Math.floor(Math.log10(s));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** A count: no decimals when whole (1000), one otherwise (a mean over repetitions: 999.5). */
    static String count(double v) {
        if (Double.isNaN(v)) {
            return ABSENT;
        }
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
