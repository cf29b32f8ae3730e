package io.fencedlock.redlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Lock} for one resource of a {@link Redlock}, made by {@link Redlock#newLock}: reentrant
 * per thread, with the lease kept alive while held ({@link LockOptions#renewal()}) and its fencing
 * token readable by the holder. Pass {@link #fencingToken()} to every resource you write while
 * holding it: a lock that lives on other machines can be lost (a pause, a partition) while this
 * thread still holds it here.
 *
 * <p>{@link #lock()} waits as long as it takes; {@link #tryLock(long, TimeUnit)} waits at most its
 * argument, and {@link #tryLock()} makes one attempt. {@link #unlock()} by a thread that does not
 * hold it throws {@link IllegalMonitorStateException}; of a lock whose lease was lost meanwhile, it
 * gives up the hold, then throws {@link LockLostException}. {@link #isHeld()} tells whether the
 * lease still is valid, and {@link #lease()}{@code .lost()} signals its loss. Conditions are not
 * supported: there is no distributed wait/notify. Thread-safe.
 */
public final class FencedLock implements Lock {
  /** The wait of one acquire in {@link #lock()}, repeated until it succeeds. */
  private static final Duration LONG_WAIT = Duration.ofDays(1);

  /** The longest {@link #tryLock(long, TimeUnit)} waits; longer asks are cut to it. */
  private static final Duration MAX_WAIT = Duration.ofDays(365);

  private final Redlock redlock;
  private final String resource;
  private final LockOptions options;

  /**
   * Threads of this process queue here first, so that only one at a time asks the nodes, and a
   * holder keeps its place until it unlocks, even if its lease was lost meanwhile: another thread
   * never takes the lock from under it in this process.
   */
  private final ReentrantLock local = new ReentrantLock();

  /** The lease of the current holding; written only by the thread that holds {@link #local}. */
  private volatile @Nullable Lease lease;

  FencedLock(Redlock redlock, String resource, LockOptions options) {
    this.redlock = Objects.requireNonNull(redlock, "redlock");
    this.resource = Objects.requireNonNull(resource, "resource");
    this.options = Objects.requireNonNull(options, "options");
    Renewer.checkedTtl(
        redlock.config(), options.ttl(), options.renewal()); // fail now, not once acquired
  }

  /** Acquires the lock, waiting as long as it takes; an interrupt is kept for later, not obeyed. */
  @Override
  public void lock() {
    boolean interrupted = false;
    while (true) {
      try {
        lockInterruptibly();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    local.lockInterruptibly();
    if (local.getHoldCount() > 1) {
      return; // reentry
    }
    try {
      while (!acquireFromNodes(LONG_WAIT)) {
        // the long wait ran out: wait again
      }
    } catch (InterruptedException | RuntimeException e) {
      local.unlock();
      throw e;
    }
  }

  @Override
  public boolean tryLock() {
    if (!local.tryLock()) {
      return false;
    }
    if (local.getHoldCount() > 1) {
      return true;
    }
    boolean held = false;
    try {
      Optional<Lease> gained = attemptUninterruptibly();
      held = gained.isPresent() && hold(gained.get());
      return held;
    } finally {
      if (!held) {
        local.unlock();
      }
    }
  }

  /**
   * One attempt, waited for whatever the interrupt flag says: {@link Lock#tryLock()} is not
   * interruptible, so an interrupt neither stops it nor is lost (the flag stays set).
   */
  private Optional<Lease> attemptUninterruptibly() {
    try {
      return redlock
          .tryAcquireAsync(resource, options.ttl())
          .toCompletableFuture()
          .orTimeout(Nodes.callBoundNanos(redlock.config()), TimeUnit.NANOSECONDS)
          .join(); // a lease gained after the bound is released by the attempt itself
    } catch (CompletionException e) {
      Throwable cause = Futures.unwrap(e);
      throw cause instanceof RuntimeException runtime
          ? runtime
          : new RedlockException(
              "the attempt on " + ResourceNames.quoted(resource) + " failed", cause);
    }
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    long start = System.nanoTime();
    long wait = Math.min(Math.max(0, unit.toNanos(time)), MAX_WAIT.toNanos());
    if (!local.tryLock(wait, TimeUnit.NANOSECONDS)) {
      return false;
    }
    if (local.getHoldCount() > 1) {
      return true;
    }
    boolean held = false;
    try {
      held = acquireFromNodes(Duration.ofNanos(Math.max(0, wait - (System.nanoTime() - start))));
      return held;
    } finally {
      if (!held) {
        local.unlock();
      }
    }
  }

  /**
   * Acquires from the nodes within {@code maxWait}, for the thread that holds {@link #local} for
   * the first time; a lease lost on arrival (see {@link #hold}) is given back and another acquired.
   */
  private boolean acquireFromNodes(Duration maxWait) throws InterruptedException {
    long giveUpAt = System.nanoTime() + maxWait.toNanos();
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      long left = Math.max(0, giveUpAt - System.nanoTime());
      try {
        if (hold(redlock.acquire(resource, options.ttl(), Duration.ofNanos(left)))) {
          return true;
        }
      } catch (LockAcquisitionException notInTime) {
        return false;
      } catch (RedlockException e) {
        if (Thread.interrupted()) {
          InterruptedException interrupted =
              new InterruptedException("interrupted while waiting for the lock");
          interrupted.initCause(e);
          throw interrupted;
        }
        throw e;
      }
      if (left == 0) {
        return false;
      }
    }
  }

  /**
   * Starts keeping {@code gained} alive and makes it this holding's; releases it if that fails, or
   * if it is lost or ran out already (it came too late in its validity for a renewal to finish):
   * the lock is never held on a lease lost from the start.
   */
  private boolean hold(Lease gained) {
    try {
      gained.keepAlive(options.renewal());
    } catch (LockExpiredException ranOut) {
      // no longer valid when it came: given back below
    } catch (RuntimeException e) {
      gained.close();
      throw e;
    }
    if (!gained.isValid()) {
      gained.close();
      return false;
    }
    lease = gained;
    return true;
  }

  /**
   * Releases one hold; the last releases the lease (also a lost one: its key is deleted where it is
   * still this lease's).
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   * @throws LockLostException if the lease was lost, or its validity ran out, while held: the work
   *     done under it may have run partly without the lock. The hold is given up all the same.
   */
  @Override
  public void unlock() {
    Lease held = heldLease();
    boolean last = local.getHoldCount() == 1;
    if (last) {
      lease = null;
    }
    local.unlock();
    Optional<LeaseLoss> loss =
        last ? LockedWork.endOf(held) : LockedWork.after(held, held.isValid());
    if (loss.isPresent()) {
      throw new LockLostException(resource, loss.get());
    }
  }

  /** Not supported: a distributed lock has no wait/notify. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("conditions are not supported by a distributed lock");
  }

  /**
   * Whether the calling thread holds the lock here, and so must {@link #unlock()} it: true until
   * then, even after its lease was lost (see {@link #isHeld()}).
   */
  public boolean isHeldByCurrentThread() {
    return local.isHeldByCurrentThread();
  }

  /**
   * Whether the calling thread holds the lock and its lease is still valid ({@link
   * Lease#isValid()}): false once the lease was lost or its validity ran out, though the thread
   * still holds it here until it unlocks. Validity is a promise with an expiry: the fencing token,
   * checked by the resource, is what protects the data if this process pauses after the check.
   */
  public boolean isHeld() {
    Lease current = lease;
    return local.isHeldByCurrentThread() && current != null && current.isValid();
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
   * The lease of the current holding: check {@link Lease#checkValid()} right before a side effect,
   * or watch {@link Lease#lost()}, which completes when the lease is lost while held. A reentrant
   * lock or tryLock does not check it.
   *
   * @throws IllegalMonitorStateException if the calling thread does not hold the lock
   */
  public Lease lease() {
    return heldLease();
  }

  private Lease heldLease() {
    Lease current = lease;
    if (!local.isHeldByCurrentThread() || current == null) {
      throw new IllegalMonitorStateException(
          "the lock on " + ResourceNames.quoted(resource) + " is not held by this thread");
    }
    return current;
  }

  @Override
  public String toString() {
    return "FencedLock[" + ResourceNames.quoted(resource) + ", " + local + "]";
  }
}
