package io.fencedlock.sim;

/**
 * Independent seeds derived from one: each use (the network, one client's jitter, one client's ids)
 * gets its own stream, named and indexed, so that removing a client or an operation while shrinking
 * leaves the other streams as they were.
 */
final class Seeds {
  private Seeds() {}

  static long of(long seed, String use, int index) {
    return mix(mix(seed ^ use.hashCode()) + index * 0x9e3779b97f4a7c15L);
  }

  /** The n-th schedule seed of a campaign. */
  static long schedule(long campaignSeed, long n) {
    return mix(campaignSeed + n * 0x9e3779b97f4a7c15L);
  }

  /** SplitMix64's finalizer. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
