package io.fencedlock.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One fan-out of floor-raw: the same command to every node, done when {@code needed} replies of the
 * wanted kind came in, or as soon as that has become impossible. The thread that created it waits
 * in {@link #await} and is unparked once, by the reply that decides; later replies (the stragglers)
 * are ignored. Replies come from the I/O thread, or from a sender whose connection failed, hence
 * the atomic counts.
 */
final class QuorumStep implements ReplyHandler {
  private static final int PENDING = 0;
  private static final int REACHED = 1;
  private static final int MISSED = 2;
  private static final VarHandle GOOD;
  private static final VarHandle BAD;
  private static final VarHandle OUTCOME;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      GOOD = lookup.findVarHandle(QuorumStep.class, "good", int.class);
      BAD = lookup.findVarHandle(QuorumStep.class, "bad", int.class);
      OUTCOME = lookup.findVarHandle(QuorumStep.class, "outcome", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ReplyKind wanted;
  private final int needed;

  /** Replies of another kind that still leave the quorum possible. */
  private final int tolerable;

  private final Thread waiter = Thread.currentThread();
  private volatile int good;
  private volatile int bad;
  private volatile int outcome = PENDING;
  private volatile @Nullable String firstError;

  /** A step over {@code nodes} nodes, waited for by the calling thread. */
  QuorumStep(ReplyKind wanted, int needed, int nodes) {
    if (needed < 1 || needed > nodes) {
      throw new IllegalArgumentException("needed must be between 1 and " + nodes + ": " + needed);
    }
    this.wanted = wanted;
    this.needed = needed;
    this.tolerable = nodes - needed;
  }

  @Override
  public void onReply(ReplyKind kind, long integer, @Nullable String error) {
    if (outcome != PENDING) {
      return; // a straggler: the step is decided and nobody waits for it
    }
    if (kind == wanted) {
      if ((int) GOOD.getAndAdd(this, 1) + 1 == needed) {
        decide(REACHED);
      }
      return;
    }
    if (error != null && firstError == null) {
      firstError = error;
    }
    if ((int) BAD.getAndAdd(this, 1) + 1 == tolerable + 1) {
      decide(MISSED);
    }
  }

  private void decide(int result) {
    if (OUTCOME.compareAndSet(this, PENDING, result)) {
      LockSupport.unpark(waiter);
    }
  }

  /** Whether the step is decided (for tests; callers use {@link #await}). */
  boolean decided() {
    return outcome != PENDING;
  }

  /** The first error reply, if any came before the decision. */
  @Nullable String firstError() {
    return firstError;
  }

  /**
   * Parks until the step is decided; by its creator only.
   *
   * @return true if {@code needed} wanted replies came, false if that became impossible
   * @throws NotGrantedException if it is not decided within {@code timeoutNanos}, or on interrupt
   */
  boolean await(long timeoutNanos) {
    long deadline = System.nanoTime() + timeoutNanos;
    int result;
    while ((result = outcome) == PENDING) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new NotGrantedException("no quorum of replies in time");
      }
      LockSupport.parkNanos(this, left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new NotGrantedException("interrupted", new InterruptedException());
      }
    }
    return result == REACHED;
  }
}
