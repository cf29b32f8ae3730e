package io.fencedlock.chaos.runner;

import static io.fencedlock.chaos.runner.Expectations.allOf;
import static io.fencedlock.chaos.runner.Expectations.canaryBites;
import static io.fencedlock.chaos.runner.Expectations.clearFailures;
import static io.fencedlock.chaos.runner.Expectations.fencedSafe;
import static io.fencedlock.chaos.runner.Expectations.live;
import static io.fencedlock.chaos.runner.Expectations.mutualExclusion;
import static io.fencedlock.chaos.runner.Expectations.progress;
import static io.fencedlock.chaos.runner.Expectations.staleWritesRejected;
import static io.fencedlock.chaos.runner.Expectations.tokenViolationsFound;
import static io.fencedlock.chaos.runner.Expectations.tokens;

import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.workload.WorkloadSpec;
import io.fencedlock.testkit.Persistence;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The catalogue of experiments of issue 3, section 6. Immutable; thread-safe. */
public final class Experiments {
  private static final WorkloadSpec STANDARD = WorkloadSpec.standard();

  public static final Experiment MINORITY =
      new Experiment(
          "minority-faults",
          "partitions, latency, blackholes, resets, pauses and kills of at most a minority: mutual"
              + " exclusion, tokens and the fenced resource hold",
          FaultMix.MINORITY,
          6,
          STANDARD,
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), live()));

  public static final Experiment CLIENT_PAUSE =
      new Experiment(
          "client-pause",
          "a holder stalls longer than its TTL: the unfenced canary loses updates, the fenced"
              + " resource rejects every stale write",
          FaultMix.CLIENT_PAUSE,
          4,
          STANDARD,
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), tokens(), fencedSafe(), canaryBites(), staleWritesRejected()));

  public static final Experiment CLOCK_STEP =
      new Experiment(
          "clock-step",
          "Kleppmann's split with clock steps forward on a minority (the shared node): mutual"
              + " exclusion may break, tokens and fencing hold",
          FaultMix.CLOCK_STEP,
          2,
          STANDARD.withClients(2).withWork(Duration.ofMillis(300)),
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), tokens(), fencedSafe()));

  public static final Experiment AMNESIA_UNSAFE =
      new Experiment(
          "amnesia-unsafe",
          "negative control: a majority restarts without persistence and rejoins at once,"
              + " init-marker check and token prediction off: token violations are found",
          FaultMix.AMNESIA,
          1,
          STANDARD.unprotectedFromAmnesia(),
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), tokenViolationsFound()));

  public static final Experiment AMNESIA_SAFE =
      new Experiment(
          "amnesia-safe",
          "a majority restarts without persistence and rejoins at once, init-marker check on: no"
              + " token violation and fencing holds (the wiped nodes stay excluded: re-admission"
              + " needs a quorum of intact nodes, so liveness is reported, not asserted)",
          FaultMix.AMNESIA,
          1,
          STANDARD,
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), tokens(), fencedSafe()));

  public static final Experiment MAJORITY_DOWN =
      new Experiment(
          "majority-down",
          "a majority is killed, paused or cut off: acquires fail with clear errors, nothing is"
              + " corrupted, locks return within the bound after the heal",
          FaultMix.MAJORITY_DOWN,
          3,
          STANDARD,
          5,
          Persistence.AOF_ALWAYS,
          allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), clearFailures(), live()));

  private static final List<Experiment> ALL =
      List.of(MINORITY, CLIENT_PAUSE, CLOCK_STEP, AMNESIA_UNSAFE, AMNESIA_SAFE, MAJORITY_DOWN);

  private Experiments() {}

  /** Every experiment, in a fixed order. */
  public static List<Experiment> all() {
    return ALL;
  }

  /** The experiment with this name. */
  public static Optional<Experiment> byName(String name) {
    return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
  }
}
