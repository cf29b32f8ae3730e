package io.fencedlock.bench;

import java.time.Duration;

/** Lock parameters every system gets, so that they do the same work. Constants only. */
final class BenchTiming {
  /** Long enough that no lease expires during a measurement. */
  static final Duration LEASE_TTL = Duration.ofSeconds(10);

  /** How long one command to one node may take before a floor system gives up. */
  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

  private BenchTiming() {}
}
