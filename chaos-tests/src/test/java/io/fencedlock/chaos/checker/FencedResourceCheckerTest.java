package io.fencedlock.chaos.checker;

import static io.fencedlock.chaos.checker.Histories.w;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.OpType;
import org.junit.jupiter.api.Test;

final class FencedResourceCheckerTest {
  private final FencedResourceChecker checker = new FencedResourceChecker();

  @Test
  void check_writesInTokenOrderAllInFinalState_true() {
    var h =
        new Histories()
            .write(0, 0, 1, OpType.OK)
            .write(10, 1, 2, OpType.OK)
            .write(20, 0, 1, OpType.FAIL)
            .finalRead(30, w(0, 1), w(1, 2))
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics())
        .containsEntry("writesAccepted", 2L)
        .containsEntry("writesRejected", 1L);
  }

  @Test
  void check_lowerTokenAcceptedAfterHigher_false() {
    var h =
        new Histories()
            .write(0, 1, 5, OpType.OK)
            .write(10, 0, 4, OpType.OK)
            .finalRead(30, w(1, 5), w(0, 4))
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry(FencedResourceChecker.STALE, 1L);
    assertThat(result.metrics().get("finalStateViolations")).isEqualTo(1L); // 4 follows 5
  }

  @Test
  void check_equalTokenFromAnotherOwner_false() {
    var h =
        new Histories()
            .write(0, 1, 5, OpType.OK)
            .write(10, 0, 5, OpType.OK)
            .finalRead(30, w(1, 5))
            .build();

    assertThat(checker.check(h).metrics()).containsEntry(FencedResourceChecker.STALE, 1L);
  }

  @Test
  void check_acknowledgedWriteMissingFromFinalState_false() {
    var h =
        new Histories()
            .write(0, 0, 1, OpType.OK)
            .write(10, 1, 2, OpType.OK)
            .finalRead(30, w(1, 2))
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry("lostWrites", 1L);
  }

  @Test
  void check_rejectedWriteVisibleInFinalState_false() {
    var h = new Histories().write(0, 0, 1, OpType.FAIL).finalRead(30, w(0, 1)).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_unknownWriteMayOrMayNotBeVisible_true() {
    var seen = new Histories().write(0, 0, 1, OpType.INFO).finalRead(30, w(0, 1)).build();
    var unseen = new Histories().write(0, 0, 1, OpType.INFO).finalRead(30).build();

    assertThat(checker.check(seen).verdict()).isEqualTo(Verdict.TRUE);
    assertThat(checker.check(unseen).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_noFinalRead_unknown() {
    var h = new Histories().write(0, 0, 1, OpType.OK).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.UNKNOWN);
  }
}
