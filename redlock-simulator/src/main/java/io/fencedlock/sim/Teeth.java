package io.fencedlock.sim;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The simulator's teeth: for each {@link Bug}, the invariants that must catch it and the number of
 * schedules within which a campaign must. CI runs each from a fixed seed ({@code TeethTest});
 * {@code ./fencedlock simulate --teeth} measures them from any seed.
 *
 * @param within the stated bound: a campaign with this bug put back fails one of {@code kinds}
 *     within this many schedules (measured over ten seeds, with room to spare; see
 *     docs/analysis.md)
 */
record Teeth(Bug bug, Set<Violation.Kind> kinds, int within) {

  static final List<Teeth> ALL =
      List.of(
          new Teeth(Bug.SHORTENING_EXTEND, EnumSet.of(Violation.Kind.LEASE_UNPROTECTED), 100),
          new Teeth(Bug.STALE_FIRST_SEEN, EnumSet.of(Violation.Kind.READMITTED_TOO_SOON), 1_000),
          new Teeth(
              Bug.NAIVE_INCR_TOKEN,
              EnumSet.of(Violation.Kind.TOKEN_ORDER, Violation.Kind.TOKEN_DUPLICATE),
              100),
          new Teeth(
              Bug.NO_MARKER_CHECK,
              EnumSet.of(Violation.Kind.TOKEN_ORDER, Violation.Kind.TOKEN_DUPLICATE),
              1_000),
          new Teeth(
              Bug.CLOSE_LEAVES_WAITING_ACQUIRES,
              EnumSet.of(Violation.Kind.CALL_UNBOUNDED, Violation.Kind.PENDING_AT_END),
              2_000),
          new Teeth(Bug.CANCEL_LEAKS_THE_LEASE, EnumSet.of(Violation.Kind.ORPHAN_KEY), 100));

  /**
   * The result of hunting for a bug: the first schedule that caught it (or -1), and its outcome.
   */
  record Hunt(long index, Outcome outcome) {}

  /**
   * Runs schedules of {@code seed} with this bug until one of its kinds fails, at most {@code max}.
   */
  Hunt hunt(long seed, long max) {
    Outcome last = null;
    for (long n = 0; n < max; n++) {
      Outcome o =
          Simulation.run(PlanGenerator.generate(Seeds.schedule(seed, n), Set.of(bug)), false);
      last = o;
      if (o.failures().stream().anyMatch(v -> kinds.contains(v.kind()))) {
        return new Hunt(n, o);
      }
    }
    return new Hunt(-1, last);
  }
}
