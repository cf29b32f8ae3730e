package io.fencedlock.chaos.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.runner.Experiment;
import io.fencedlock.chaos.runner.ExperimentRunner;
import io.fencedlock.chaos.runner.Experiments;
import io.fencedlock.chaos.runner.RunReport;
import io.fencedlock.chaos.workload.WorkloadSpec;
import java.nio.file.Path;
import java.time.Duration;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generated minority-fault schedules and workloads against real Redis processes, proxies and the
 * storage service: mutual exclusion, tokens and the fenced resource must hold. Few, short tries
 * (each starts a cluster); jqwik prints the seed of every run, {@code @Property(seed = "...")}
 * replays one, and a failing schedule shrinks (bounded, since each try takes seconds). A jqwik
 * property, but an integration test: it runs real processes over real sockets.
 */
final class MinorityScheduleIT {
  private static final Logger LOG = LoggerFactory.getLogger(MinorityScheduleIT.class);
  private static final Topology TOPO = new Topology(5, 3, 1000, 2000);

  record Run(FaultSchedule schedule, WorkloadSpec workload) {}

  @Property(
      tries = 3,
      shrinking = ShrinkingMode.BOUNDED,
      afterFailure = AfterFailureMode.SAMPLE_FIRST)
  void minoritySchedule_anyWorkload_safetyHolds(@ForAll("runs") Run run) {
    Experiment experiment = Experiments.MINORITY.withWorkload(run.workload());
    LOG.info(
        "schedule {} with {} ms leases, {} ms of work per lease",
        run.schedule(),
        run.workload().ttl().toMillis(),
        run.workload().work().toMillis());

    RunReport report =
        new ExperimentRunner(Path.of("target", "chaos"), System.out)
            .run(experiment, run.schedule().hashCode(), run.schedule());

    assertThat(report.unmet()).as("results in " + report.dir()).isEmpty();
    assertThat(report.metrics().acquisitions()).isPositive();
  }

  @Provide
  Arbitrary<Run> runs() {
    WorkloadSpec base = WorkloadSpec.standard();
    Arbitrary<WorkloadSpec> workloads =
        Combinators.combine(
                Arbitraries.integers().between(600, 1500), Arbitraries.integers().between(0, 150))
            .as(
                (ttl, work) ->
                    new WorkloadSpec(
                        TOPO.clients(),
                        2,
                        Duration.ofMillis(ttl),
                        base.maxWait(),
                        base.nodeTimeout(),
                        base.maxLeaseTtl(),
                        true,
                        true,
                        Duration.ofMillis(work),
                        base.renewPercent(),
                        base.extendPercent(),
                        false,
                        base.storageTimeout()));
    return Combinators.combine(FaultArbitraries.minoritySchedule(TOPO, 2), workloads).as(Run::new);
  }
}
