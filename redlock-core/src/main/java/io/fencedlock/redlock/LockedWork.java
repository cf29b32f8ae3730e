package io.fencedlock.redlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs work under a lock, on the public API alone: acquire, keep alive, run, always release, and
 * tell the work (interrupt or cancel) when the lease is lost. Stateless.
 */
final class LockedWork {

  private LockedWork() {}

  /** See {@link Redlock#withLock}. */
  static <T, E extends Exception> T run(
      Redlock redlock, String resource, LockOptions options, LeasedWork<T, E> work) throws E {
    Renewer.checkedTtl(
        redlock.config(), options.ttl(), options.renewal()); // fail now, not once acquired
    Lease lease = redlock.acquire(resource, options.ttl(), options.maxWait());
    Worker worker = new Worker(Thread.currentThread(), options.interruptOnLoss());
    T result;
    try {
      lease.keepAlive(options.renewal());
      lease.lost().thenAccept(loss -> worker.lost());
      result = work.run(lease);
    } catch (Error failure) {
      worker.finish();
      endOf(lease).ifPresent(loss -> failure.addSuppressed(new LockLostException(resource, loss)));
      throw failure;
    } catch (Exception failure) {
      boolean interruptedByLoss = worker.finish();
      java.util.Optional<LeaseLoss> loss = endOf(lease);
      if (loss.isEmpty()) {
        throw failure;
      }
      // The loss comes first, whatever the work failed with (most often the interrupt the loss
      // caused): a caller catching the work's own exception would otherwise miss it.
      if (failure instanceof InterruptedException && !interruptedByLoss) {
        Thread.currentThread().interrupt(); // the caller's own interrupt, no longer thrown as such
      }
      throw new LockLostException(resource, loss.get(), failure);
    }
    worker.finish();
    java.util.Optional<LeaseLoss> loss = endOf(lease);
    if (loss.isPresent()) {
      throw new LockLostException(resource, loss.get());
    }
    return result;
  }

  /**
   * Releases the lease and tells whether the work ran without the lock at some point: the loss the
   * lease reported, or, if the release found the lease no longer valid without a reported loss (its
   * validity ran out, or its client was closed), a loss saying so.
   */
  static java.util.Optional<LeaseLoss> endOf(Lease lease) {
    // Read before releasing: a lease being released no longer counts as valid.
    boolean validBefore = lease.isValid();
    boolean wasValid;
    try {
      wasValid = lease.release();
    } catch (RedlockException interrupted) {
      wasValid = validBefore; // the release goes on in the background; the interrupt is kept
    }
    return after(lease, wasValid);
  }

  /**
   * The loss of {@code lease}: the one it reported, or, if it was not valid when released (or now,
   * if not released) without a reported loss, a loss saying its validity ran out.
   */
  static java.util.Optional<LeaseLoss> after(Lease lease, boolean releasedWhileValid) {
    java.util.Optional<LeaseLoss> reported = lostLoss(lease);
    if (reported.isPresent() || releasedWhileValid) {
      return reported;
    }
    return java.util.Optional.of(
        new LeaseLoss(
            LeaseLoss.Reason.EXPIRED,
            "the lease was no longer valid when the work ended: its validity ran out, or its client"
                + " was closed",
            java.util.List.of(),
            java.time.Duration.ZERO));
  }

  /** See {@link Redlock#withLockAsync}; the work is called on {@code executor}. */
  static <T> CompletionStage<T> runAsync(
      Redlock redlock,
      String resource,
      LockOptions options,
      Function<Lease, ? extends CompletionStage<T>> work,
      Executor executor) {
    Renewer.checkedTtl(redlock.config(), options.ttl(), options.renewal());
    CompletableFuture<Lease> acquiring =
        redlock.acquireAsync(resource, options.ttl(), options.maxWait()).toCompletableFuture();
    // Who gets the lease: the work, or a cancel of the result that came first (then nothing else
    // would release it before its TTL).
    AtomicBoolean claimed = new AtomicBoolean();
    // The work's stage once the grant claimed the lease; cancelling it before the work is called
    // keeps the work from being called (and the release follows as for any end of the work).
    CompletableFuture<T> calling = new CompletableFuture<>();
    CompletableFuture<T> result =
        acquiring.thenCompose(
            lease -> {
              if (!claimed.compareAndSet(false, true)) {
                return lease.releaseAsync().thenApply(released -> null); // cancelled meanwhile
              }
              CompletableFuture<T> running;
              try {
                // Kept alive from the grant on, also while the work waits for its executor.
                lease.keepAlive(options.renewal());
                running = applyOn(executor, work, lease, calling);
              } catch (RuntimeException | Error failure) {
                running = CompletableFuture.failedFuture(failure);
              }
              CompletableFuture<T> stage = running;
              if (options.interruptOnLoss()) {
                lease.lost().thenAccept(loss -> stage.cancel(true));
              }
              return stage
                  .handle((value, failure) -> new Outcome<>(value, failure))
                  .thenCompose(
                      outcome ->
                          lease
                              .releaseAsync()
                              .handle(
                                  (released, e) ->
                                      outcome.resultOrThrow(
                                          resource,
                                          after(lease, released != null && released)
                                              .orElse(null))));
            });
    result.whenComplete(
        (value, failure) -> {
          if (!result.isCancelled()) {
            return;
          }
          if (claimed.compareAndSet(false, true)) {
            acquiring.cancel(true); // an acquire still on its way releases what it gains
            acquiring.thenAccept(Lease::releaseAsync);
          } else {
            calling.cancel(true); // granted: the work is not called if it was not yet
          }
        });
    return result;
  }

  /**
   * The work's stage, called on {@code executor} (the acquire completes on a thread of the client,
   * an I/O or timer thread, whose every other task a blocking work would hold up). Cancelling the
   * returned future cancels the work's own stage, or keeps the work from being called.
   */
  private static <T> CompletableFuture<T> applyOn(
      Executor executor,
      Function<Lease, ? extends CompletionStage<T>> work,
      Lease lease,
      CompletableFuture<T> mirror) {
    executor.execute(
        () -> {
          if (mirror.isDone()) {
            return; // lost before the work was called
          }
          CompletableFuture<T> stage;
          try {
            stage = work.apply(lease).toCompletableFuture();
          } catch (RuntimeException | Error failure) {
            mirror.completeExceptionally(failure);
            return;
          }
          mirror.whenComplete(
              (value, failure) -> {
                if (mirror.isCancelled()) {
                  stage.cancel(true);
                }
              });
          stage.whenComplete(
              (value, failure) -> {
                if (failure == null) {
                  mirror.complete(value);
                } else {
                  mirror.completeExceptionally(failure);
                }
              });
        });
    return mirror;
  }

  /** The loss, if the lease ended lost (its loss stage completed normally). */
  private static java.util.Optional<LeaseLoss> lostLoss(Lease lease) {
    CompletableFuture<LeaseLoss> lost = lease.lost().toCompletableFuture();
    return lost.isDone() && !lost.isCompletedExceptionally()
        ? java.util.Optional.of(lost.join())
        : java.util.Optional.empty();
  }

  /** What the async work ended with. */
  private record Outcome<T>(@Nullable T value, @Nullable Throwable failure) {
    T resultOrThrow(String resource, @Nullable LeaseLoss loss) {
      if (failure != null) {
        Throwable cause = Futures.unwrap(failure);
        if (loss != null && cause instanceof java.util.concurrent.CancellationException) {
          throw new LockLostException(resource, loss); // the work was cancelled because of the loss
        }
        if (loss != null && cause instanceof Exception) {
          throw new LockLostException(resource, loss, cause); // as withLock: the loss comes first
        }
        if (loss != null) {
          cause.addSuppressed(new LockLostException(resource, loss));
        }
        throw cause instanceof CompletionException wrapped
            ? wrapped
            : new CompletionException(cause);
      }
      if (loss != null) {
        throw new LockLostException(resource, loss);
      }
      return value;
    }
  }

  /**
   * The thread running sync work, interrupted on loss only while the work runs, and only once: an
   * interrupt this class caused is cleared when the work returns, so it never leaks into the
   * caller's later code; the caller's own interrupts are kept.
   */
  private static final class Worker {
    private final Thread thread;
    private final boolean interrupt;
    private boolean running = true;
    private boolean interruptedByLoss;

    Worker(Thread thread, boolean interrupt) {
      this.thread = thread;
      this.interrupt = interrupt;
    }

    synchronized void lost() {
      if (running && interrupt && !thread.isInterrupted()) {
        interruptedByLoss = true;
        thread.interrupt();
      }
    }

    /** Ends the work's time; returns whether this class interrupted it. */
    synchronized boolean finish() {
      running = false;
      if (interruptedByLoss) {
        Thread.interrupted();
      }
      return interruptedByLoss;
    }
  }
}
