package io.fencedlock.redlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Lock} for one resource of a {@link Redlock}, made by {@link Redlock#newLock}:
 * reentrant per thread, with the lease kept alive while held ({@link LockOptions#renewal()})
 * and its fencing token readable by the holder. Pass {@link #fencingToken()} to every resource
 * you write while holding it: a lock that lives on other machines can be lost (a pause, a
 * partition) while this thread still holds it here.
 *
 * <p>{@link #lock()} waits as long as it takes; {@link #tryLock(long, TimeUnit)} waits at
 * most its argument, and {@link #tryLock()} makes one attempt. {@link #unlock()} by a thread
 * that does not hold it throws {@link IllegalMonitorStateException}. Conditions are not
 * supported: there is no distributed wait/notify. Thread-safe.
 */
public final class FencedLock implements Lock {
  /** The wait of one acquire in {@link #lock()}, repeated until it succeeds. */
  private static final Duration LONG_WAIT = Duration.ofDays(1);

  private final Redlock redlock;
  private final String resource;
  private final LockOptions options;
  /** Guarded by {@code this}. */
  private @Nullable Thread owner;
  private int holds;
  private @Nullable Lease lease;

  FencedLock(Redlock redlock, String resource, LockOptions options) {
    this.redlock = Objects.requireNonNull(redlock, "redlock");
    this.resource = Objects.requireNonNull(resource, "resource");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Acquires the lock, waiting as long as it takes; an interrupt is kept for later, not obeyed. */
  @Override
  public void lock() {
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        try {
          lockInterruptibly();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    while (!acquire(LONG_WAIT)) {
      // the long wait ran out: wait again
    }
  }

  @Override
  public boolean tryLock() {
    if (reenter()) {
      return true;
    }
    Optional<Lease> gained = redlock.tryAcquire(resource, options.ttl());
    return gained.isPresent() && hold(gained.get());
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    return acquire(Duration.ofNanos(Math.max(0, unit.toNanos(time))));
  }

  private boolean acquire(Duration maxWait) throws InterruptedException {
    if (reenter()) {
      return true;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    try {
      return hold(redlock.acquire(resource, options.ttl(), maxWait));
    } catch (LockAcquisitionException notInTime) {
      return false;
    } catch (RedlockException e) {
      if (Thread.interrupted()) {
        InterruptedException interrupted = new InterruptedException("interrupted while waiting for the lock");
        interrupted.initCause(e);
        throw interrupted;
      }
      throw e;
    }
  }

  private synchronized boolean reenter() {
    if (owner == Thread.currentThread()) {
      holds++;
      return true;
    }
    return false;
  }

  private synchronized boolean hold(Lease gained) {
    owner = Thread.currentThread();
    holds = 1;
    lease = gained;
    gained.keepAlive(options.renewal());
    return true;
  }

  /**
   * Releases one hold; the last releases the lease.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   */
  @Override
  public void unlock() {
    Lease released;
    synchronized (this) {
      if (owner != Thread.currentThread()) {
        throw new IllegalMonitorStateException("the lock on '" + resource + "' is not held by this thread");
      }
      if (--holds > 0) {
        return;
      }
      released = lease;
      owner = null;
      lease = null;
    }
    if (released != null) {
      released.close();
    }
  }

  /** Not supported: a distributed lock has no wait/notify. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("conditions are not supported by a distributed lock");
  }

  /** Whether the calling thread holds the lock (its lease may still have been lost: see {@link #lease()}). */
  public synchronized boolean isHeldByCurrentThread() {
    return owner == Thread.currentThread();
  }

  /**
   * The fencing token of the current holding.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   */
  public long fencingToken() {
    return heldLease().fencingToken();
  }

  /**
   * The lease of the current holding: check {@link Lease#checkValid()} right before a side
   * effect, or watch {@link Lease#lost()}.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   */
  public Lease lease() {
    return heldLease();
  }

  private synchronized Lease heldLease() {
    if (owner != Thread.currentThread() || lease == null) {
      throw new IllegalMonitorStateException("the lock on '" + resource + "' is not held by this thread");
    }
    return lease;
  }

  @Override
  public synchronized String toString() {
    return "FencedLock[" + resource + (owner == null ? ", free here" : ", held by " + owner.getName() + " x" + holds) + "]";
  }
}
