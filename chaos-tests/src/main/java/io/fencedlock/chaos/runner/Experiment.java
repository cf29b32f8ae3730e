package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.fixture.StorageProcess;
import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.generator.Topology;
import io.fencedlock.chaos.workload.WorkloadSpec;
import io.fencedlock.testkit.Persistence;
import java.util.Objects;

/**
 * One experiment: a workload, a kind of fault schedule, the cluster it needs and the asserted
 * expectation. Immutable; {@code with*} methods give changed copies.
 *
 * @param name a short name, also the output directory
 * @param expectation the expectation in words (results file, docs)
 * @param role whether it shows safety, is a negative control, or reports what happens
 * @param mix which faults the schedule draws
 * @param faults how many faults or fault episodes per schedule
 * @param workload the clients' workload
 * @param nodes how many Redis nodes
 * @param persistence the nodes' persistence at start
 * @param nodeClocks whether the nodes run on clocks of their own (libfaketime)
 * @param storage what the storage service runs on
 * @param freshCluster whether every schedule needs a cluster of its own (its faults leave the
 *     cluster unusable for the next one, e.g. a majority without memory)
 * @param check the asserted expectation
 */
public record Experiment(
    String name,
    String expectation,
    Role role,
    FaultMix mix,
    int faults,
    WorkloadSpec workload,
    int nodes,
    Persistence persistence,
    boolean nodeClocks,
    StorageProcess.Mode storage,
    boolean freshCluster,
    Expectation check) {

  /** What an experiment is for. */
  public enum Role {
    /** Faults the design tolerates: safety must hold (and the faults must bite). */
    SAFETY,
    /** A negative control: a checker must report a violation, or the test tests nothing. */
    CONTROL,
    /** Faults outside the design: what happens is reported, only basic facts are asserted. */
    REPORT
  }

  public Experiment {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(check, "check");
  }

  /** The topology the schedule is generated for. */
  public Topology topology() {
    return new Topology(
        nodes,
        workload.clients(),
        workload.ttl().toMillis(),
        workload.maxLeaseTtl().toMillis(),
        workload.nodeTimeout().toMillis());
  }

  /** The same experiment with another workload. */
  public Experiment withWorkload(WorkloadSpec spec) {
    return new Experiment(
        name,
        expectation,
        role,
        mix,
        faults,
        spec,
        nodes,
        persistence,
        nodeClocks,
        storage,
        freshCluster,
        check);
  }

  /**
   * The same experiment with another fault count (CI runs and campaigns use fewer), never fewer
   * than its mix needs ({@link FaultMix#minimumEpisodes}).
   */
  public Experiment withFaults(int count) {
    return new Experiment(
        name,
        expectation,
        role,
        mix,
        Math.max(count, mix.minimumEpisodes()),
        workload,
        nodes,
        persistence,
        nodeClocks,
        storage,
        freshCluster,
        check);
  }

  /** The same experiment on the machine's clock (where libfaketime is missing: the PTTL model). */
  public Experiment withoutNodeClocks() {
    return new Experiment(
        name,
        expectation,
        role,
        mix,
        faults,
        workload,
        nodes,
        persistence,
        false,
        storage,
        freshCluster,
        check);
  }

  /** Whether two experiments can share a cluster and client processes. */
  public boolean sameSetup(Experiment other) {
    return !freshCluster
        && !other.freshCluster
        && workload.equals(other.workload)
        && nodes == other.nodes
        && persistence == other.persistence
        && nodeClocks == other.nodeClocks
        && storage == other.storage;
  }
}
