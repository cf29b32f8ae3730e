package io.fencedlock.redlock;

/**
 * A monotonic source of nanoseconds, the only clock lease arithmetic uses.
 *
 * <p>Only differences between two readings are meaningful, as with {@link System#nanoTime()}. Tests
 * inject a ticker they advance by hand instead of sleeping. Implementations must be thread-safe and
 * must never go backwards.
 */
@FunctionalInterface
public interface Ticker {

  /** Returns the current reading in nanoseconds. */
  long read();

  /** Returns the ticker backed by {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
