package io.fencedlock.sim;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The fencing-token invariant, checked at every grant: a token is unique for its resource, and
 * above every token of a lease whose acquire completed before this lease's acquire was called
 * (real-time order). Per resource it keeps the grants in completion order with a running maximum,
 * so a check is a binary search.
 */
final class TokenLedger {
  private final long[][] completedAt;
  private final long[][] maxSoFar;
  private final int[] size;
  private final Set<Long>[] seen;
  private final Violations violations;
  private final Stats stats;

  @SuppressWarnings("unchecked")
  TokenLedger(int resources, Violations violations, Stats stats) {
    this.completedAt = new long[resources][16];
    this.maxSoFar = new long[resources][16];
    this.size = new int[resources];
    this.seen = new Set[resources];
    for (int r = 0; r < resources; r++) {
      seen[r] = new HashSet<>();
    }
    this.violations = violations;
    this.stats = stats;
  }

  /**
   * A lease with {@code token} on {@code resource}, whose call began at {@code calledAt}, completed
   * now.
   */
  void granted(int resource, long token, long calledAt, long now, int client, String owner) {
    stats.checks += 2;
    if (!seen[resource].add(token)) {
      violations.add(
          Violation.Kind.TOKEN_DUPLICATE,
          who(client, owner)
              + " got token "
              + token
              + " on r"
              + resource
              + ", which another lease of r"
              + resource
              + " already had");
    }
    int n = size[resource];
    int before = countBefore(completedAt[resource], n, calledAt);
    if (before > 0 && maxSoFar[resource][before - 1] >= token) {
      violations.add(
          Violation.Kind.TOKEN_ORDER,
          who(client, owner)
              + " got token "
              + token
              + " on r"
              + resource
              + ", but a lease whose acquire completed before this call began had token "
              + maxSoFar[resource][before - 1]);
    }
    if (n == completedAt[resource].length) {
      completedAt[resource] = Arrays.copyOf(completedAt[resource], n * 2);
      maxSoFar[resource] = Arrays.copyOf(maxSoFar[resource], n * 2);
    }
    completedAt[resource][n] = now;
    maxSoFar[resource][n] = n == 0 ? token : Math.max(token, maxSoFar[resource][n - 1]);
    size[resource] = n + 1;
  }

  private static String who(int client, String owner) {
    return "c" + client + "'s lease " + Trace.id(owner);
  }

  /** How many grants completed strictly before {@code time} (completion times never decrease). */
  private static int countBefore(long[] times, int n, long time) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (times[mid] < time) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
