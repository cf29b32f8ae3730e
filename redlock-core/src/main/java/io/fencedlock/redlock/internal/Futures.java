package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.RedlockException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/** Helpers for the async core and the sync views derived from it. Thread-safe. */
public final class Futures {
  private Futures() {}

  /** Strips the CompletionException and ExecutionException wrappers. */
  public static Throwable unwrap(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /**
   * Waits for a stage. On interrupt, cancels it, keeps the interrupt flag and throws. A failure
   * is rethrown as itself if unchecked, else wrapped.
   */
  public static <T> T await(CompletionStage<T> stage) {
    CompletableFuture<T> future = stage.toCompletableFuture();
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new RedlockException("interrupted while waiting", e);
    } catch (ExecutionException | CancellationException e) {
      Throwable cause = unwrap(e);
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new RedlockException(cause.getMessage(), cause);
    }
  }
}
