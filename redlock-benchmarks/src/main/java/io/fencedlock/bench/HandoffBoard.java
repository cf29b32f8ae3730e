package io.fencedlock.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Recorder;

/**
 * Who holds the contended lock, for the handoff scenario: times each handoff (a holder starts
 * releasing → the next holder is granted), counts overlapping holders, and lets a client that just
 * released sit out until someone else has had the lock, so every handoff measured goes to a client
 * that was waiting. Thread-safe (one monitor).
 */
final class HandoffBoard {
  private static final int NOBODY = -1;

  private final Recorder handoffs = new Recorder(60_000_000_000L, 3);
  private int holder = NOBODY;
  private long releaseStartedAt;
  private boolean releasePending;
  private long grants;
  private long overlaps;

  synchronized void granted(int client) {
    long now = System.nanoTime();
    if (holder != NOBODY) {
      overlaps++; // two holders at once: the lock failed
    }
    holder = client;
    grants++;
    if (releasePending) {
      handoffs.recordValue(now - releaseStartedAt);
      releasePending = false;
    }
    notifyAll();
  }

  /** Called by the holder just before it releases. */
  synchronized long releasing() {
    holder = NOBODY;
    releaseStartedAt = System.nanoTime();
    releasePending = true;
    return grants;
  }

  /**
   * Waits until a grant after {@code grantsAtRelease} happened, or {@code timeoutMillis} passed (if
   * nobody else wants the lock, the client simply takes it again).
   */
  synchronized void awaitNextHolder(long grantsAtRelease, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    long left;
    while (grants == grantsAtRelease && (left = deadline - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while sitting out", e);
      }
    }
  }

  Recorder handoffs() {
    return handoffs;
  }

  synchronized long overlaps() {
    return overlaps;
  }
}
