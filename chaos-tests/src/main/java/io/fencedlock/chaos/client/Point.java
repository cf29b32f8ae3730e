package io.fencedlock.chaos.client;

import java.util.Locale;

/**
 * Where in a client's code a targeted fault lands. The client process stops at an armed point,
 * tells the harness, and waits until the harness has paused or killed it there. Immutable.
 */
public enum Point {
  /** Whenever the fault starts: the process is signalled at once, whatever it is doing. */
  ANY,
  /**
   * Between the two phases of a fenced acquire: a quorum granted the lock and the client is about
   * to write the token (the driver's first {@code writeToken} of an acquire). While it is armed,
   * the client's token prediction misses, so that its acquires take the second phase.
   */
  BETWEEN_PHASES,
  /** In a write, after the fence was accepted and before the read and the put. */
  AFTER_FENCE,
  /** In a release, as its first delete goes out. */
  IN_RELEASE,
  /** In a renewal, as its first extend goes out (not in an extend the workload asked for). */
  IN_RENEWAL;

  /** The name on the wire and in histories: {@code after-fence}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The point named {@code name} on the wire.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static Point fromWire(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
