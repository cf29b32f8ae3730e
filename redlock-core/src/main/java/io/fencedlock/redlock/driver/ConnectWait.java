package io.fencedlock.redlock.driver;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A driver's {@code connect}: waits a bounded time for the first connections, never fails. */
public final class ConnectWait {

  private ConnectWait() {}

  /**
   * Waits at most {@code timeout} for every connect; a node that fails or is slow is tolerated (it
   * shows up as that node's outcome later). Keeps the caller's interrupt flag.
   */
  public static void awaitAll(CompletableFuture<?>[] connects, Duration timeout) {
    CompletableFuture<?>[] tolerant = new CompletableFuture<?>[connects.length];
    for (int i = 0; i < connects.length; i++) {
      tolerant[i] = connects[i].exceptionally(e -> null);
    }
    try {
      CompletableFuture.allOf(tolerant).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      // Some node is slow or unreachable; it shows up as that node's outcome later.
    } catch (ExecutionException e) {
      throw new IllegalStateException("connect futures are made infallible above", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
