package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class MutualExclusionCheckerTest {
  private final MutualExclusionChecker checker = new MutualExclusionChecker();

  @Test
  void check_sequentialHoldsReleasedBeforeNextAcquire_true() {
    var h =
        new Histories()
            .acquire(0, 0, 1, 1000)
            .release(100, 0)
            .acquire(150, 1, 2, 1000)
            .release(300, 1)
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics()).containsEntry("holds", 2L);
  }

  @Test
  void check_secondAcquireWhileFirstStillHolds_falseWithOneViolation() {
    var h =
        new Histories()
            .acquire(0, 0, 1, 1000)
            .acquire(200, 1, 2, 1000)
            .release(500, 0)
            .release(600, 1)
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.violations()).isEqualTo(1);
    assertThat(result.details())
        .singleElement()
        .asString()
        .contains("process 0 (token 1) and 1 (token 2)");
  }

  @Test
  void check_firstHolderStalledPastValidity_notAnOverlap() {
    // Process 0's validity ends at 101 ms; it releases late, at 900 ms, but no longer believes it
    // holds.
    var h =
        new Histories()
            .acquire(0, 0, 1, 100)
            .acquire(300, 1, 2, 1000)
            .release(400, 1)
            .release(900, 0)
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_acquireReportedAfterItsDeadline_notAnOverlap() {
    // Process 0 was stopped (SIGSTOP) between its acquire and its report: the report arrives at
    // 500 ms with a deadline of 200 ms, while process 1 holds from 301 ms; process 0 never
    // believed it held then.
    var h =
        new Histories()
            .op(0, OpType.INVOKE, 0, Fn.ACQUIRE, Map.of())
            .acquire(300, 1, 2, 1000)
            .op(
                500,
                OpType.OK,
                0,
                Fn.ACQUIRE,
                Map.of(
                    Fields.TOKEN,
                    1L,
                    Fields.OWNER,
                    Histories.owner(0),
                    Fields.VALID_UNTIL,
                    200_000_000L))
            .release(800, 1)
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics()).containsEntry("holds", 2L);
  }

  @Test
  void check_acquireReportedLateWhileStillValid_overlapFound() {
    // Same late report, but its deadline (700 ms) is after process 1's acquire: both held.
    var h =
        new Histories()
            .op(0, OpType.INVOKE, 0, Fn.ACQUIRE, Map.of())
            .acquire(300, 1, 2, 1000)
            .op(
                500,
                OpType.OK,
                0,
                Fn.ACQUIRE,
                Map.of(
                    Fields.TOKEN,
                    1L,
                    Fields.OWNER,
                    Histories.owner(0),
                    Fields.VALID_UNTIL,
                    700_000_000L))
            .release(800, 1)
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_releaseUnderFreshProcessAfterUnknownWrite_holdEndsAtThatRelease() {
    // Process 0's write ended INFO, so its worker released as process 3; the hold ends there,
    // not at the validity deadline, and process 1's later acquire is no overlap.
    var h =
        new Histories()
            .acquire(0, 0, 1, 1000)
            .op(10, OpType.INVOKE, 0, Fn.WRITE, Map.of())
            .op(20, OpType.INFO, 0, Fn.WRITE, Map.of())
            .op(30, OpType.INVOKE, 3, Fn.RELEASE, Map.of("token", 1L, "owner", Histories.owner(0)))
            .op(31, OpType.OK, 3, Fn.RELEASE, Map.of())
            .acquire(100, 1, 2, 1000)
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_emptyHistory_true() {
    assertThat(checker.check(new Histories().build()).verdict()).isEqualTo(Verdict.TRUE);
  }
}
