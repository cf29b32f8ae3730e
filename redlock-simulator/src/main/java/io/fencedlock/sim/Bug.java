package io.fencedlock.sim;

import io.fencedlock.redlock.spi.Regression;
import org.jspecify.annotations.Nullable;

/**
 * Bugs the simulator can put back, to show it finds them (its "teeth"). Four live in what a node
 * does, so the simulated node puts them back; two lived in the algorithm, which {@link
 * io.fencedlock.redlock.spi.Environment#regressions()} puts back in the real code. None is ever on
 * unless a run asks for it.
 */
public enum Bug {
  /** extend.lua before the fix: PEXPIRE to the requested TTL even when that shortens the key. */
  SHORTENING_EXTEND(null),
  /**
   * Re-admission timed from a stale first sighting: every empty incarnation of a node has the same
   * name and init-node.lua ignores it, so a client that saw an earlier wipe carries its old
   * first-seen time into the next one. This reproduces the old client's behaviour exactly.
   */
  STALE_FIRST_SEEN(null),
  /**
   * The naive token: acquire.lua INCRs the fence counter on a grant and returns the old value;
   * phase 2 and predictions write nothing. Token = 1 + max over the granting quorum.
   */
  NAIVE_INCR_TOKEN(null),
  /** acquire.lua never answers "uninitialized": a node that lost its memory takes part at once. */
  NO_MARKER_CHECK(null),
  /** close() leaves an acquire that waits between attempts waiting (issue 13, bug 3). */
  CLOSE_LEAVES_WAITING_ACQUIRES(Regression.CLOSE_LEAVES_WAITING_ACQUIRES),
  /**
   * Cancelling an async acquire reaches a copy; a lease it then gains is never released (issue 13,
   * bug 4).
   */
  CANCEL_LEAKS_THE_LEASE(Regression.CANCEL_LEAKS_THE_LEASE);

  private final @Nullable Regression regression;

  Bug(@Nullable Regression regression) {
    this.regression = regression;
  }

  /** The algorithm regression this bug is, or null if it lives in the node model. */
  public @Nullable Regression regression() {
    return regression;
  }

  /** The name on the command line: lower case with dashes. */
  public String cliName() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** The bug named {@code name} in either spelling. */
  public static Bug parse(String name) {
    return valueOf(name.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
  }
}
