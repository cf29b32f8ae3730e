package io.fencedlock.bench;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Waits for the k-th positive reply of a fan-out, which is what a quorum step costs at best:
 * stragglers keep running but nobody waits for them. Thread-safe.
 */
final class QuorumWait {
  private QuorumWait() {}

  /**
   * Blocks until {@code needed} replies satisfy {@code ok}, and returns true; returns false as soon
   * as that has become impossible.
   *
   * @throws NotGrantedException on timeout or interrupt
   */
  static <T> boolean await(
      List<? extends CompletionStage<T>> replies, int needed, Predicate<T> ok) {
    CompletableFuture<Boolean> decision = new CompletableFuture<>();
    AtomicInteger good = new AtomicInteger();
    AtomicInteger bad = new AtomicInteger();
    int tolerable = replies.size() - needed;
    for (CompletionStage<T> reply : replies) {
      reply.whenComplete(
          (value, failure) -> {
            if (failure == null && ok.test(value)) {
              if (good.incrementAndGet() == needed) {
                decision.complete(true);
              }
            } else if (bad.incrementAndGet() == tolerable + 1) {
              decision.complete(false);
            }
          });
    }
    return join(decision);
  }

  private static boolean join(CompletableFuture<Boolean> decision) {
    try {
      return decision.get(BenchTiming.COMMAND_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotGrantedException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new NotGrantedException("no quorum of replies in time", e);
    }
  }
}
