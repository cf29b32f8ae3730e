package io.fencedlock.cli.demo;

import io.fencedlock.redlock.Lease;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The fault the demo injects: the calling thread stops, as in a stop-the-world GC pause, until the
 * lease's validity has really run out. This sleep <em>is</em> the fault, not a way of synchronising
 * with anything.
 *
 * <p>Stateless and thread-safe.
 */
final class GcPause {
  private GcPause() {}

  /**
   * Blocks until {@code lease.isValid()} is false, sleeping for its remaining validity.
   *
   * @throws IllegalStateException if the lease is still valid after {@code bound}, or the thread is
   *     interrupted (the interrupt flag is kept)
   */
  static void untilLeaseRunsOut(Lease lease, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (lease.isValid()) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("lease still valid after a pause of " + bound);
      }
      // +1 ms: remainingValidity() truncates to whole milliseconds when converted below.
      long sleepMillis = lease.remainingValidity().toMillis() + 1;
      try {
        TimeUnit.MILLISECONDS.sleep(sleepMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted during the simulated GC pause", e);
      }
    }
  }
}
