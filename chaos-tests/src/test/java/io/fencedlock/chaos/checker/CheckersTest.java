package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.History;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class CheckersTest {
  private static final History EMPTY = new Histories().build();

  private static Checker fixed(String name, Verdict verdict) {
    return new Checker() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CheckResult check(History history) {
        return new CheckResult(
            name, verdict, verdict == Verdict.FALSE ? 1 : 0, Map.of(), List.of());
      }
    };
  }

  @Test
  void compose_allTrue_true() {
    assertThat(
            Checkers.compose(List.of(fixed("a", Verdict.TRUE), fixed("b", Verdict.TRUE)), EMPTY)
                .verdict())
        .isEqualTo(Verdict.TRUE);
  }

  @Test
  void compose_falseAndUnknown_falseWins() {
    var result =
        Checkers.compose(
            List.of(
                fixed("a", Verdict.UNKNOWN), fixed("b", Verdict.FALSE), fixed("c", Verdict.TRUE)),
            EMPTY);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.results()).extracting(CheckResult::checker).containsExactly("a", "b", "c");
  }

  @Test
  void compose_unknownAndTrue_unknown() {
    assertThat(
            Checkers.compose(List.of(fixed("a", Verdict.TRUE), fixed("b", Verdict.UNKNOWN)), EMPTY)
                .verdict())
        .isEqualTo(Verdict.UNKNOWN);
  }

  @Test
  void compose_checkerThrows_unknownWithCause() {
    Checker broken =
        new Checker() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public CheckResult check(History history) {
            throw new IllegalStateException("boom");
          }
        };

    var result = Checkers.compose(List.of(fixed("a", Verdict.TRUE), broken), EMPTY);

    assertThat(result.verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(result.result("broken").orElseThrow().details())
        .singleElement()
        .asString()
        .contains("boom");
  }

  @Test
  void standard_validHandMadeHistory_allTrue() {
    var h =
        new Histories()
            .acquire(0, 0, 1, 500)
            .write(10, 0, 1, io.fencedlock.chaos.history.OpType.OK)
            .canary(20, 0, 1)
            .release(30, 0)
            .finalHeal(40)
            .acquire(50, 1, 2, 500)
            .write(60, 1, 2, io.fencedlock.chaos.history.OpType.OK)
            .canary(70, 1, 2)
            .release(80, 1)
            .finalRead(100, Histories.w(0, 1), Histories.w(1, 2))
            .build();

    var result = Checkers.compose(Checkers.standard(1_000_000_000L), h);

    assertThat(result.results())
        .allSatisfy(r -> assertThat(r.verdict()).as(r.checker()).isEqualTo(Verdict.TRUE));
  }
}
