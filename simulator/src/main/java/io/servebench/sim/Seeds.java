package io.servebench.sim;

/** Derives independent, reproducible random seeds from an engine seed and a request's identity. */
final class Seeds {

    private Seeds() {
    }

    /** SplitMix64's finalizer: a bijective scramble of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A seed for one stream of choices ({@code purpose}) of the request {@code requestId}. */
    static long forRequest(long engineSeed, String requestId, int purpose) {
        long h = engineSeed;
        for (int i = 0; i < requestId.length(); i++) {
            h = mix(h + requestId.charAt(i));
        }
        return mix(h + purpose);
    }
}
