package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The simulator over many schedules of the real algorithm, and its determinism. */
final class SimulationTest {
  private static final Logger log = LoggerFactory.getLogger(SimulationTest.class);

  /** Fixed, so that CI runs the same schedules every time; change it to explore (it is logged). */
  private static final long CAMPAIGN_SEED = 20261124L;

  private static final int CI_SCHEDULES = 10_000;

  @Test
  void campaign_tenThousandSchedules_noViolationInsideTheAssumptions() {
    log.info("campaign seed {}: {} schedules", CAMPAIGN_SEED, CI_SCHEDULES);
    Campaign.Result result = Campaign.run(CAMPAIGN_SEED, CI_SCHEDULES, Set.of(), false, log::info);
    log.info(
        "{} schedules in {} ms ({}/s), {} steps, {} invariant checks, {} outside the assumptions,"
            + " expected violations {}",
        result.schedules,
        result.nanos / 1_000_000,
        (long) result.perSecond(),
        result.stats.steps,
        result.stats.checks,
        result.outsideAssumptions,
        result.expected);
    Outcome first = result.firstFailure;
    assertThat(result.failures)
        .as(
            "failures inside the assumptions; first: %s; replay: ./fencedlock simulate --replay %s"
                + " --trace",
            first == null ? "none" : first.failures(), first == null ? "-" : first.plan().seed())
        .isEmpty();
    assertThat(result.schedules).isEqualTo(CI_SCHEDULES);
    // The campaign exercised what it claims to: every fault family, and leases by the thousand.
    assertThat(result.stats.faults().values()).allSatisfy(count -> assertThat(count).isPositive());
    assertThat(result.stats.leases).isGreaterThan(CI_SCHEDULES);
    assertThat(result.stats.readmissions).isPositive();
    assertThat(result.outsideAssumptions).isPositive();
  }

  @Test
  void run_sameSeedTwice_sameTraceBitForBit() {
    for (long n = 0; n < 30; n++) {
      long seed = Seeds.schedule(CAMPAIGN_SEED, n);
      Set<Bug> bugs =
          n % 3 == 0
              ? EnumSet.noneOf(Bug.class)
              : EnumSet.of(Bug.values()[(int) (n % Bug.values().length)]);
      Plan plan = PlanGenerator.generate(seed, bugs);
      Outcome first = Simulation.run(plan, true);
      Outcome again = Simulation.run(PlanGenerator.generate(seed, bugs), true);
      Outcome quiet = Simulation.run(plan, false);
      assertThat(again.trace()).as("seed %d", seed).isEqualTo(first.trace());
      assertThat(again.traceHash()).as("seed %d", seed).isEqualTo(first.traceHash());
      assertThat(quiet.traceHash())
          .as("seed %d, trace not recorded", seed)
          .isEqualTo(first.traceHash());
      assertThat(again.violations()).isEqualTo(first.violations());
    }
  }

  @Test
  void generate_sameSeed_samePlan() {
    Plan a = PlanGenerator.generate(42, Set.of());
    Plan b = PlanGenerator.generate(42, Set.of());
    assertThat(b.describe()).isEqualTo(a.describe());
  }
}
