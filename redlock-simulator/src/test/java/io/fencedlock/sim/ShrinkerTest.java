package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A failing schedule shrinks to a smaller one that fails the same way, and prints as a trace. */
final class ShrinkerTest {

  @Test
  void shrink_shorteningExtendFailure_fewerOpsAndFaultsSameInvariant() {
    Teeth tooth = Teeth.ALL.get(0);
    Teeth.Hunt hunt = tooth.hunt(1, tooth.within());
    Outcome failing = hunt.outcome();
    Violation.Kind kind = failing.failures().get(0).kind();

    Outcome minimal = Shrinker.shrink(failing, 500);

    assertThat(minimal.failures()).extracting(Violation::kind).contains(kind);
    assertThat(minimal.plan().ops().size() + minimal.plan().faults().size())
        .isLessThan(failing.plan().ops().size() + failing.plan().faults().size());
    assertThat(minimal.plan().ops().size()).isLessThanOrEqualTo(3);
    Outcome traced = Simulation.run(minimal.plan(), true);
    assertThat(traced.trace()).anySatisfy(line -> assertThat(line).contains("VIOLATION " + kind));
  }
}
