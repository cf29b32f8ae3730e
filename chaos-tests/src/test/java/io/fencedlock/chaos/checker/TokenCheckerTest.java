package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TokenCheckerTest {
  private final TokenChecker checker = new TokenChecker();

  @Test
  void check_increasingTokens_true() {
    var h =
        new Histories().acquire(0, 0, 5, 100).acquire(10, 1, 6, 100).acquire(20, 0, 9, 100).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics()).containsEntry("acquisitions", 3L);
  }

  @Test
  void check_laterAcquireGetsLowerToken_false() {
    var h = new Histories().acquire(0, 0, 10, 100).acquire(10, 1, 3, 100).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry("tokenOrderViolations", 1L);
  }

  @Test
  void check_duplicateTokenOfConcurrentAcquires_false() {
    var h =
        new Histories()
            .op(0, OpType.INVOKE, 0, Fn.ACQUIRE, Map.of())
            .op(1, OpType.INVOKE, 1, Fn.ACQUIRE, Map.of())
            .op(2, OpType.OK, 0, Fn.ACQUIRE, Map.of("token", 7L))
            .op(3, OpType.OK, 1, Fn.ACQUIRE, Map.of("token", 7L))
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry("duplicateTokens", 1L);
  }

  @Test
  void check_concurrentAcquiresInAnyOrder_true() {
    // Overlapping in real time, so either order of tokens is allowed.
    var h =
        new Histories()
            .op(0, OpType.INVOKE, 0, Fn.ACQUIRE, Map.of())
            .op(1, OpType.INVOKE, 1, Fn.ACQUIRE, Map.of())
            .op(2, OpType.OK, 0, Fn.ACQUIRE, Map.of("token", 9L))
            .op(3, OpType.OK, 1, Fn.ACQUIRE, Map.of("token", 8L))
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_unknownAndFailedAcquires_ignored() {
    var h =
        new Histories()
            .acquire(0, 0, 10, 100)
            .op(10, OpType.INVOKE, 1, Fn.ACQUIRE, Map.of())
            .op(11, OpType.INFO, 1, Fn.ACQUIRE, Map.of("token", 1L))
            .op(12, OpType.INVOKE, 2, Fn.ACQUIRE, Map.of())
            .op(13, OpType.FAIL, 2, Fn.ACQUIRE, Map.of())
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }
}
