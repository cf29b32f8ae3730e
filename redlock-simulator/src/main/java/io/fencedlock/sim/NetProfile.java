package io.fencedlock.sim;

/**
 * How messages travel until the network heals. Every message takes a short delay (50 us plus an
 * exponential part of mean {@code meanDelayNanos}); with probability {@code slowRate} it takes a
 * long one instead (past the node timeout); requests and replies are lost with their own
 * probabilities (a lost reply means the request ran).
 */
public record NetProfile(
    long meanDelayNanos, double slowRate, long slowMaxNanos, double requestLoss, double replyLoss) {

  /** After healing: short delays, nothing lost, nothing slow. */
  public static NetProfile healed(long meanDelayNanos) {
    return new NetProfile(meanDelayNanos, 0, 0, 0, 0);
  }

  String describe() {
    return String.format(
        "delay ~%.2f ms, slow %.0f%% (<= %.1f ms), request loss %.0f%%, reply loss %.0f%%",
        meanDelayNanos / 1e6,
        slowRate * 100,
        slowMaxNanos / 1e6,
        requestLoss * 100,
        replyLoss * 100);
  }
}
