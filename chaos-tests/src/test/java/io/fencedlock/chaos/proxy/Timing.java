package io.fencedlock.chaos.proxy;

import java.time.Duration;

/**
 * The one place test time bounds come from. Bounds are scaled by the system property
 * {@code fencedlock.timing.scale} (or env {@code FENCEDLOCK_TIMING_SCALE}), default 1, for slow
 * or loaded machines. Lower bounds of toxic effects are never scaled: they are the behaviour
 * under test.
 */
final class Timing {

    private static final double SCALE = scale();

    private Timing() {}

    /** How long to wait for something that should happen promptly. */
    static Duration await() {
        return scaled(Duration.ofSeconds(10));
    }

    /** Upper bound for an operation expected to take {@code expected}: generous, the machine is shared. */
    static Duration generousUpperBound(Duration expected) {
        return expected.plus(scaled(Duration.ofSeconds(3)));
    }

    /** Read timeout for sockets that should deliver data promptly. */
    static Duration socketTimeout() {
        return scaled(Duration.ofSeconds(10));
    }

    /** A short window in which something must NOT happen (e.g. data through a timeout toxic). */
    static Duration quietWindow() {
        return Duration.ofMillis(300);
    }

    static Duration scaled(Duration duration) {
        return Duration.ofNanos((long) (duration.toNanos() * SCALE));
    }

    private static double scale() {
        String value = System.getProperty("fencedlock.timing.scale", System.getenv("FENCEDLOCK_TIMING_SCALE"));
        return value == null || value.isBlank() ? 1.0 : Double.parseDouble(value);
    }
}
