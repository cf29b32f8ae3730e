package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PerResourceTest {

  private static Histories acquire(Histories h, long at, int process, String resource, long token) {
    h.op(at, OpType.INVOKE, process, Fn.ACQUIRE, Map.of(Fields.RESOURCE, resource));
    return h.op(
        at + 1,
        OpType.OK,
        process,
        Fn.ACQUIRE,
        Map.of(
            Fields.TOKEN,
            token,
            Fields.OWNER,
            Histories.owner(process),
            Fields.VALIDITY_NANOS,
            500_000_000L));
  }

  @Test
  void check_sameTokenOnTwoResources_eachResourceJudgedAlone() {
    // Tokens are per resource: the same number on two resources is no duplicate.
    var h = new Histories();
    acquire(h, 0, 0, "a", 5);
    acquire(h, 10, 1, "b", 5);

    CheckResult r = new PerResource(new TokenChecker()).check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(r.metrics()).containsEntry("acquisitions", 2L);
  }

  @Test
  void check_overlapOnOneResource_falseNamingIt() {
    var h = new Histories();
    acquire(h, 0, 0, "a", 5);
    acquire(h, 10, 1, "b", 6);
    acquire(h, 20, 2, "a", 7);

    CheckResult r = new PerResource(new MutualExclusionChecker()).check(h.build());

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.violations()).isEqualTo(1);
    assertThat(r.details()).singleElement().asString().startsWith("a: ");
  }
}
