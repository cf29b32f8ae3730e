package io.fencedlock.storage.service;

import java.time.Duration;

/**
 * Counts requests being handled and refuses new ones once draining starts, so the service can stop
 * after running requests finish. {@code HttpServer.stop(delay)} cannot do this itself: before JDK
 * 21 it waits the whole delay even when nothing is running. Thread-safe (monitor).
 */
final class InFlightRequests {
  private int running;
  private boolean draining;

  /** Registers a request; false if draining has begun and the request must be refused. */
  synchronized boolean tryEnter() {
    if (draining) {
      return false;
    }
    running++;
    return true;
  }

  /** Marks a request registered by {@link #tryEnter()} as finished. */
  synchronized void exit() {
    running--;
    if (running == 0) {
      notifyAll();
    }
  }

  /**
   * Refuses new requests from now on and waits for running ones, at most {@code grace}.
   *
   * @return whether every running request finished in time
   */
  synchronized boolean drain(Duration grace) throws InterruptedException {
    draining = true;
    long deadline = System.nanoTime() + grace.toNanos();
    while (running > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
