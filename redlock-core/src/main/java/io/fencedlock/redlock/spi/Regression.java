package io.fencedlock.redlock.spi;

/**
 * Bugs this library once had, which a test-only {@link Environment} can put back so that the
 * deterministic simulator shows it still finds them (its "teeth"). Never set one in production:
 * each breaks a guarantee on purpose.
 *
 * <p>Only the bugs that lived in the algorithm are here. Those that lived in a script (an extend
 * that shortened keys) or in what a node keeps (re-admission timed from an earlier empty
 * incarnation), the naive per-node-INCR token and a switched-off marker check are put back by the
 * simulated nodes instead, since that is where the difference lies.
 */
public enum Regression {
  /**
   * {@code close()} leaves an acquire that waits between attempts waiting: its retry timer is
   * dropped and nothing completes it (issue 13, bug 3).
   */
  CLOSE_LEAVES_WAITING_ACQUIRES,
  /**
   * The async acquire methods hand out a copy of their future, so cancelling it reaches nothing,
   * and a lease the attempt then gains is never released (issue 13, bug 4).
   */
  CANCEL_LEAKS_THE_LEASE
}
