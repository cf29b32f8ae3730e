package io.fencedlock.chaos.client;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The client process's targeted points: the harness arms one {@link Point}; the first thread that
 * reaches it tells the harness and waits until the harness says go, which it does only after it has
 * paused (SIGSTOP) or killed the process there. So the signal lands exactly at the point, in a real
 * process, with every thread of it. The wait is bounded, so a harness that never answers cannot
 * hang a client forever. Thread-safe.
 */
final class Checkpoints {
  /** Longest wait for the harness's go; far above any pause a schedule plans. */
  static final long WAIT_BOUND_SECONDS = 30;

  private final ClientOutput out;
  private Point armed; // guarded by this
  private CountDownLatch go = new CountDownLatch(0); // guarded by this
  private volatile boolean extending;

  Checkpoints(ClientOutput out) {
    this.out = out;
  }

  synchronized void arm(Point point) {
    armed = point;
  }

  synchronized void disarm() {
    armed = null;
  }

  /** Whether {@code point} is armed and not reached yet. */
  synchronized boolean isArmed(Point point) {
    return armed == point;
  }

  /** The harness's answer to the last {@code at}. */
  synchronized void go() {
    go.countDown();
  }

  /** Marks the calling op as an extend the workload asked for, so its extends are not renewals. */
  void extending(boolean explicit) {
    extending = explicit;
  }

  boolean isExtending() {
    return extending;
  }

  /** Called where {@code point} is in the code: stops there if it is armed, once. */
  void at(Point point) {
    CountDownLatch wait;
    synchronized (this) {
      if (armed != point) {
        return;
      }
      armed = null;
      wait = new CountDownLatch(1);
      go = wait;
    }
    out.send(Map.of("type", "at", "point", point.wireName()));
    try {
      if (!wait.await(WAIT_BOUND_SECONDS, TimeUnit.SECONDS)) {
        System.err.println("no go from the harness at " + point + "; going on");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the op is being abandoned; let it see the interrupt
    }
  }
}
