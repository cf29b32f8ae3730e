package io.fencedlock.sim;

import static io.fencedlock.sim.PlanGenerator.ms;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 37's two classes of bug, in the smallest schedules that show them (as the shrinker left
 * what the campaign found): work under {@code withLockAsync} that a closing client does not tell
 * its lease is ending, and a metrics sink whose exceptions change what its client does. Both fail
 * until the client tells the work when it closes and keeps the sink's exceptions to itself.
 */
final class WorkAndCallbacksTest {

  @Test
  void clientClosesWhileWorkRuns_theWorkIsToldBeforeItsLeaseRunsOut() {
    Outcome o =
        Simulation.run(
            plan(List.of(work(ms(10), 90, ms(300))), List.of(new Fault.ClientClose(0, ms(20)))),
            true);

    assertThat(o.stats().works).isEqualTo(1);
    assertThat(o.failures()).as(String.join("\n", o.trace())).isEmpty();
  }

  @Test
  void metricsSinkThrows_theScheduleDoesWhatItDoesWithASilentSink() {
    // a renewed lease, then a plain acquire of the same client that waits for it: a local handoff
    Op waiting = new Op(ms(20), 0, 0, false, 40, 200, -1, ms(5), List.of(), false);
    Outcome o =
        Simulation.run(
            plan(
                List.of(work(ms(10), 50, ms(150)), waiting),
                List.of(new Fault.ThrowingMetrics(0, 0))),
            true);

    assertThat(o.stats().works).isEqualTo(1);
    assertThat(o.failures()).as(String.join("\n", o.trace())).isEmpty();
  }

  /** The first lease's release hands the lock to the second acquire, which waits for it. */
  @Test
  void metricsSinkThrows_aLocalHandoffHandsTheLockOnAsWithASilentSink() {
    Op held = new Op(ms(10), 0, 0, false, 60, 0, -1, ms(20), List.of(), false);
    Op waiting = new Op(ms(15), 0, 0, false, 60, 200, -1, ms(5), List.of(), false);
    Outcome o =
        Simulation.run(
            plan(List.of(held, waiting), List.of(new Fault.ThrowingMetrics(0, 0))), true);

    assertThat(o.failures()).as(String.join("\n", o.trace())).isEmpty();
    assertThat(o.stats().leases).as("both acquires and the final one").isEqualTo(3);
  }

  private static Op work(long at, int ttlMillis, long workNanos) {
    return new Op(at, 0, 0, false, ttlMillis, 100, -1, workNanos, List.of(), true);
  }

  private static Plan plan(List<Op> ops, List<Fault> faults) {
    return new Plan(
        1,
        3,
        1,
        1,
        true,
        true,
        2,
        NetProfile.healed(Simulation.MEAN_DELAY_NANOS),
        ms(400),
        ops,
        faults,
        Set.of());
  }
}
