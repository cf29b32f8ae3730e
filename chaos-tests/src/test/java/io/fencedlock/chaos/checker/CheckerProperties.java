package io.fencedlock.chaos.checker;

import static io.fencedlock.chaos.checker.Histories.w;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Generated histories of correct lock use pass every checker; the same histories with one violation
 * injected (a stale token, an overlap, a lost write) fail the right checker. Pure.
 */
final class CheckerProperties {
  private static final long BOUND = 1_000_000_000L;

  /**
   * One lease: which process holds it, the token step, how long it is held, the gap after it (ms).
   */
  record Lease(int process, int tokenStep, int holdMillis, int gapMillis) {}

  @Provide
  Arbitrary<List<Lease>> leases() {
    return net.jqwik.api.Combinators.combine(
            Arbitraries.integers().between(0, 4),
            Arbitraries.integers().between(1, 5),
            Arbitraries.integers().between(5, 50),
            Arbitraries.integers().between(1, 20))
        .as(Lease::new)
        .list()
        .ofMinSize(2)
        .ofMaxSize(30);
  }

  /**
   * Sequential leases: acquire, write, release; then the final heal, one more lease and the final
   * read.
   */
  private static History sequential(
      List<Lease> leases, int staleAt, boolean overlapLast, boolean loseFirst) {
    Histories h = new Histories();
    List<long[]> accepted = new ArrayList<>();
    long t = 0;
    long token = 100;
    for (int i = 0; i < leases.size(); i++) {
      Lease l = leases.get(i);
      token += l.tokenStep();
      long used = i == staleAt ? token - 50 : token; // a stale token, accepted: a fencing bug
      h.acquire(t, l.process(), used, 1000).write(t + 2, l.process(), used, OpType.OK);
      boolean overlap = overlapLast && i == leases.size() - 2;
      long releaseAt = overlap ? t + l.holdMillis() + l.gapMillis() + 3 : t + l.holdMillis();
      if (!overlap) {
        h.release(releaseAt, l.process());
      }
      if (!(loseFirst && i == 0)) {
        accepted.add(w(l.process(), used));
      }
      t = releaseAt + l.gapMillis() + 2;
    }
    h.finalHeal(t).acquire(t + 1, 0, token + 1, 1000).release(t + 5, 0);
    return h.finalRead(t + 10, accepted.toArray(long[][]::new)).build();
  }

  @Property(tries = 200)
  void checkers_correctHistory_allTrue(@ForAll("leases") List<Lease> leases) {
    CompositeResult result =
        Checkers.compose(Checkers.standard(BOUND), sequential(leases, -1, false, false));

    assertThat(result.verdict()).as(result.results().toString()).isEqualTo(Verdict.TRUE);
  }

  @Property(tries = 200)
  void checkers_staleTokenInjected_tokenAndFencedCheckersFalse(
      @ForAll("leases") List<Lease> leases, @ForAll @IntRange(min = 1, max = 29) int at) {
    int staleAt = Math.min(at, leases.size() - 1);
    CompositeResult result =
        Checkers.compose(Checkers.standard(BOUND), sequential(leases, staleAt, false, false));

    assertThat(result.result(TokenChecker.NAME).orElseThrow().verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.result(FencedResourceChecker.NAME).orElseThrow().verdict())
        .isEqualTo(Verdict.FALSE);
    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
  }

  @Property(tries = 200)
  void checkers_unreleasedLeaseOverlapsNext_mutualExclusionFalseWhenProcessesDiffer(
      @ForAll("leases") List<Lease> leases) {
    int n = leases.size();
    CompositeResult result =
        Checkers.compose(Checkers.standard(BOUND), sequential(leases, -1, true, false));

    // The unreleased lease stays valid for a second, across the last lease and the one after the
    // heal (process 0).
    int holder = leases.get(n - 2).process();
    boolean othersAcquire = leases.get(n - 1).process() != holder || holder != 0;
    Verdict me = result.result(MutualExclusionChecker.NAME).orElseThrow().verdict();
    assertThat(me).isEqualTo(othersAcquire ? Verdict.FALSE : Verdict.TRUE);
  }

  @Property(tries = 200)
  void checkers_acknowledgedWriteMissing_fencedCheckerFalse(@ForAll("leases") List<Lease> leases) {
    CompositeResult result =
        Checkers.compose(Checkers.standard(BOUND), sequential(leases, -1, false, true));

    assertThat(result.result(FencedResourceChecker.NAME).orElseThrow().metrics())
        .containsEntry("lostWrites", 1L);
  }
}
