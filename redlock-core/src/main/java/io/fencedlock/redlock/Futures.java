package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeFailures;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/** Helpers for the async core and the sync views derived from it. Thread-safe. */
final class Futures {
  private Futures() {}

  /** Strips the CompletionException and ExecutionException wrappers. */
  static Throwable unwrap(Throwable e) {
    return NodeFailures.unwrap(e);
  }

  /** The same, for a stage whose result holds nothing to give back when the caller gives up. */
  static <T> T await(CompletionStage<T> stage, long boundNanos) {
    return await(stage, boundNanos, ignored -> {});
  }

  /**
   * Waits for a stage, at most {@code boundNanos}. On interrupt, cancels it, keeps the interrupt
   * flag and throws. A failure is rethrown as itself if unchecked (its type, message and accessors
   * unchanged), with the caller's stack added as a suppressed {@link CallerStack}: the failure was
   * made on an I/O or timer thread, whose frames alone do not show which call failed. A checked
   * failure is wrapped in a {@link RedlockException}, made here.
   *
   * <p>The bound is a safety net, not a timeout callers rely on: every stage this library creates
   * completes within its own bound (node timeouts and the caller's maxWait). If one ever did not,
   * the call cancels it and fails rather than block its caller forever.
   *
   * @param abandoned receives the result if the stage completed anyway, between the interrupt (or
   *     the bound) and the cancel: nobody else will see it (a lease to release, say)
   */
  static <T> T await(CompletionStage<T> stage, long boundNanos, Consumer<? super T> abandoned) {
    CompletableFuture<T> future = stage.toCompletableFuture();
    try {
      return future.get(boundNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      giveUp(future, abandoned);
      Thread.currentThread().interrupt();
      throw new RedlockException("interrupted while waiting", e);
    } catch (TimeoutException e) {
      giveUp(future, abandoned);
      throw new RedlockException(
          "the call did not complete within its bound of "
              + TimeUnit.NANOSECONDS.toMillis(boundNanos)
              + " ms (a bug: please report it)",
          e);
    } catch (ExecutionException | CancellationException e) {
      Throwable cause = unwrap(e);
      if (cause instanceof RuntimeException runtime) {
        throw CallerStack.addTo(runtime);
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new RedlockException(cause.getMessage(), cause);
    }
  }

  /**
   * Where a synchronous call that received a failure made on another thread was made, as a
   * suppressed exception of that failure. At most one per failure: were one failure ever handed to
   * several callers, it would not grow with each of them (it then shows the first).
   */
  static final class CallerStack extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private CallerStack() {
      super("the synchronous call that received this failure was made here");
    }

    static <E extends RuntimeException> E addTo(E failure) {
      synchronized (failure) {
        for (Throwable suppressed : failure.getSuppressed()) {
          if (suppressed instanceof CallerStack) {
            return failure;
          }
        }
        failure.addSuppressed(new CallerStack());
      }
      return failure;
    }
  }

  private static <T> void giveUp(CompletableFuture<T> future, Consumer<? super T> abandoned) {
    if (!future.cancel(true) && !future.isCompletedExceptionally()) {
      abandoned.accept(future.join()); // completed just before the cancel: hand back its result
    }
  }

  /** Whether the calling thread has been interrupted; then a blocking call does not start. */
  static void checkNotInterrupted() {
    if (Thread.currentThread().isInterrupted()) {
      throw new RedlockException("interrupted before the call started");
    }
  }
}
