package io.servebench.load;

import java.util.SplittableRandom;

/**
 * Draws gamma-distributed numbers with Marsaglia and Tsang's method (ACM TOMS 26(3), 2000), seeded.
 * A shape below 1 is drawn as {@code Gamma(shape + 1) · U^(1/shape)}, which keeps the method exact there.
 */
final class GammaSampler {

    private final double shape;
    private final double scale;
    private final SplittableRandom random;

    /**
     * @param shape {@code k > 0}
     * @param scale {@code θ > 0}; the mean is {@code k θ}
     * @param seed  the same seed gives the same sequence
     */
    GammaSampler(double shape, double scale, long seed) {
        if (!(shape > 0) || !(scale > 0)) {
            throw new IllegalArgumentException("gamma shape and scale must be > 0, got " + shape + " and " + scale);
        }
        this.shape = shape;
        this.scale = scale;
        this.random = new SplittableRandom(seed);
    }

    double next() {
        if (shape < 1) {
            double u = 1.0 - random.nextDouble();
            return draw(shape + 1) * Math.pow(u, 1 / shape) * scale;
        }
        return draw(shape) * scale;
    }

    /** A unit-scale gamma number of shape {@code k ≥ 1}. */
    private double draw(double k) {
        double d = k - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = gaussian();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = 1.0 - random.nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    /** A standard normal number (Box-Muller, one of the pair). */
    private double gaussian() {
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
