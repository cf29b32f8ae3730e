package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.generator.Topology;
import io.fencedlock.chaos.workload.WorkloadSpec;
import io.fencedlock.testkit.Persistence;
import java.util.Objects;

/**
 * One experiment: a workload, a kind of fault schedule and the asserted expectation. Immutable.
 *
 * @param name a short name, also the output directory
 * @param expectation the expectation in words (results file, docs)
 * @param mix which faults the schedule draws
 * @param faults how many faults or fault episodes per schedule
 * @param workload the clients' workload
 * @param nodes how many Redis nodes
 * @param persistence the nodes' persistence at start
 * @param check the asserted expectation
 */
public record Experiment(
    String name,
    String expectation,
    FaultMix mix,
    int faults,
    WorkloadSpec workload,
    int nodes,
    Persistence persistence,
    Expectation check) {

  public Experiment {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(check, "check");
  }

  /** The topology the schedule is generated for. */
  public Topology topology() {
    return new Topology(
        nodes, workload.clients(), workload.ttl().toMillis(), workload.maxLeaseTtl().toMillis());
  }

  /** The same experiment with another workload. */
  public Experiment withWorkload(WorkloadSpec spec) {
    return new Experiment(name, expectation, mix, faults, spec, nodes, persistence, check);
  }

  /** The same experiment with another fault count (CI runs use fewer). */
  public Experiment withFaults(int count) {
    return new Experiment(name, expectation, mix, count, workload, nodes, persistence, check);
  }
}
