package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Liveness of the public calls: each must complete within its own bound (for acquire, maxWait plus
 * the node and connect timeouts the core allows itself; time its client spent paused is added,
 * since a stopped process cannot be expected to finish anything), and none may be left pending when
 * the schedule ends. A bound is checked by an event at its deadline, so a check costs nothing per
 * step.
 */
final class CallBook {
  private final EventLoop loop;
  private final Violations violations;
  private final Stats stats;
  private final long[] pauseStartedAt;
  private final long[] pausedBefore;
  private final List<Call> calls = new ArrayList<>();

  private static final class Call {
    final String what;
    final int client;
    final long start;
    final long pausedAtStart;
    final CompletableFuture<?> future;

    Call(String what, int client, long start, long pausedAtStart, CompletableFuture<?> future) {
      this.what = what;
      this.client = client;
      this.start = start;
      this.pausedAtStart = pausedAtStart;
      this.future = future;
    }
  }

  CallBook(EventLoop loop, int clients, Violations violations, Stats stats) {
    this.loop = loop;
    this.violations = violations;
    this.stats = stats;
    this.pauseStartedAt = new long[clients];
    this.pausedBefore = new long[clients];
    java.util.Arrays.fill(pauseStartedAt, -1);
  }

  /** A call made now by {@code client}, which must complete within {@code boundNanos}. */
  void started(String what, int client, long boundNanos, CompletableFuture<?> future) {
    stats.calls++;
    Call call = new Call(what, client, loop.now(), pausedNanos(client), future);
    if (calls.size() >= 64) {
      calls.removeIf(c -> c.future.isDone());
    }
    calls.add(call);
    loop.after(boundNanos, Event.WORLD, () -> checkBound(call, boundNanos));
  }

  private void checkBound(Call call, long boundNanos) {
    stats.checks++;
    if (call.future.isDone()) {
      return;
    }
    long allowedUntil = call.start + boundNanos + (pausedNanos(call.client) - call.pausedAtStart);
    if (loop.now() < allowedUntil) {
      loop.at(allowedUntil, Event.WORLD, () -> checkBound(call, boundNanos));
      return;
    }
    violations.add(
        Violation.Kind.CALL_UNBOUNDED,
        String.format(
            "c%d's %s, called at %.3f ms, is still pending after " + "its bound of %.3f ms",
            call.client, call.what, call.start / 1e6, boundNanos / 1e6));
  }

  void clientPaused(int client) {
    pauseStartedAt[client] = loop.now();
  }

  void clientResumed(int client) {
    if (pauseStartedAt[client] >= 0) {
      pausedBefore[client] += loop.now() - pauseStartedAt[client];
      pauseStartedAt[client] = -1;
    }
  }

  private long pausedNanos(int client) {
    long ongoing = pauseStartedAt[client] >= 0 ? loop.now() - pauseStartedAt[client] : 0;
    return pausedBefore[client] + ongoing;
  }

  /** At the end: every call must have completed. */
  void checkNonePending() {
    for (Call call : calls) {
      stats.checks++;
      if (!call.future.isDone()) {
        violations.add(
            Violation.Kind.PENDING_AT_END,
            String.format(
                "c%d's %s, called at %.3f ms, never completed",
                call.client, call.what, call.start / 1e6));
      }
    }
  }
}
