package io.fencedlock.sim;

import java.util.List;

/**
 * One acquire a client starts, and what it does with the lease if it gets one: extend it at given
 * delays, and release it after {@code holdNanos} (or keep it until the schedule heals, if
 * negative). Plain data, so that a failing schedule can be shrunk.
 *
 * @param at when the client calls, in simulated nanoseconds
 * @param tryOnly tryAcquireAsync (one attempt) instead of acquireAsync
 * @param maxWaitMillis acquireAsync's maxWait (ignored by tryOnly)
 * @param cancelAfterNanos when the client cancels the call's stage, after calling; negative for
 *     never
 * @param extendsAfter per extend, {delay after the grant in nanos, ttl in ms}
 * @param keptAlive the acquire is {@code withLockAsync}'s: the lease is kept alive while its work
 *     runs, for {@code holdNanos}, and released by the library when the work ends or is told the
 *     lease was lost (no extends, no cancel)
 */
public record Op(
    long at,
    int client,
    int resource,
    boolean tryOnly,
    int ttlMillis,
    int maxWaitMillis,
    long cancelAfterNanos,
    long holdNanos,
    List<long[]> extendsAfter,
    boolean keptAlive) {

  Op withClient(int newClient) {
    return new Op(
        at,
        newClient,
        resource,
        tryOnly,
        ttlMillis,
        maxWaitMillis,
        cancelAfterNanos,
        holdNanos,
        extendsAfter,
        keptAlive);
  }

  Op withResource(int newResource) {
    return new Op(
        at,
        client,
        newResource,
        tryOnly,
        ttlMillis,
        maxWaitMillis,
        cancelAfterNanos,
        holdNanos,
        extendsAfter,
        keptAlive);
  }

  String describe() {
    StringBuilder s =
        new StringBuilder(
            String.format(
                "%9.3f ms  c%d %s r%d ttl %d ms",
                at / 1e6,
                client,
                keptAlive ? "withLock" : tryOnly ? "tryAcquire" : "acquire",
                resource,
                ttlMillis));
    if (!tryOnly) {
      s.append(", maxWait ").append(maxWaitMillis).append(" ms");
    }
    if (cancelAfterNanos >= 0) {
      s.append(String.format(", cancel after %.3f ms", cancelAfterNanos / 1e6));
    }
    for (long[] e : extendsAfter) {
      s.append(String.format(", extend(%d ms) at +%.3f ms", e[1], e[0] / 1e6));
    }
    if (keptAlive) {
      s.append(String.format(", kept alive while its work runs %.3f ms", holdNanos / 1e6));
      return s.toString();
    }
    s.append(holdNanos < 0 ? ", keep" : String.format(", release at +%.3f ms", holdNanos / 1e6));
    return s.toString();
  }
}
