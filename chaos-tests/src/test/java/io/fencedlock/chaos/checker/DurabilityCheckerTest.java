package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class DurabilityCheckerTest {
  private final DurabilityChecker checker = new DurabilityChecker();

  private static Histories restartProbe(Histories h, long at, long storedToken) {
    Map<String, Object> v =
        Map.of(Fields.OBSERVED, "storage-restart", Fields.STORED_TOKEN, storedToken);
    h.op(at, OpType.INVOKE, Op.OBSERVER, Fn.OBSERVE, v);
    return h.op(at, OpType.OK, Op.OBSERVER, Fn.OBSERVE, v);
  }

  @Test
  void check_tokenKeptAcrossRestart_true() {
    var h = restartProbe(new Histories().write(0, 0, 7, OpType.OK), 10, 7).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_tokenLostInRestart_false() {
    var h = restartProbe(new Histories().write(0, 0, 7, OpType.OK), 10, -1).build();

    CheckResult r = checker.check(h);

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.details()).singleElement().asString().contains("below the acknowledged 7");
  }

  @Test
  void check_unacknowledgedWriteNeedNotSurvive_true() {
    var h = restartProbe(new Histories().write(0, 0, 7, OpType.INFO), 10, -1).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }
}
