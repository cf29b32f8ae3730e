package io.fencedlock.chaos.runner;

import static io.fencedlock.chaos.runner.Expectations.allOf;
import static io.fencedlock.chaos.runner.Expectations.canaryBites;
import static io.fencedlock.chaos.runner.Expectations.clearFailures;
import static io.fencedlock.chaos.runner.Expectations.clientsSignalled;
import static io.fencedlock.chaos.runner.Expectations.durabilityBroken;
import static io.fencedlock.chaos.runner.Expectations.durable;
import static io.fencedlock.chaos.runner.Expectations.faultsApplied;
import static io.fencedlock.chaos.runner.Expectations.faultsBit;
import static io.fencedlock.chaos.runner.Expectations.fencedBroken;
import static io.fencedlock.chaos.runner.Expectations.fencedSafe;
import static io.fencedlock.chaos.runner.Expectations.live;
import static io.fencedlock.chaos.runner.Expectations.mutualExclusion;
import static io.fencedlock.chaos.runner.Expectations.mutualExclusionBroken;
import static io.fencedlock.chaos.runner.Expectations.outage;
import static io.fencedlock.chaos.runner.Expectations.powerLossBit;
import static io.fencedlock.chaos.runner.Expectations.progress;
import static io.fencedlock.chaos.runner.Expectations.readmittedByHighWater;
import static io.fencedlock.chaos.runner.Expectations.staleWritesRejected;
import static io.fencedlock.chaos.runner.Expectations.tokenViolationsFound;
import static io.fencedlock.chaos.runner.Expectations.tokens;

import io.fencedlock.chaos.fixture.StorageProcess;
import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.runner.Experiment.Role;
import io.fencedlock.chaos.workload.WorkloadSpec;
import io.fencedlock.testkit.Persistence;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The catalogue of experiments (issue 18): what each breaks and what it asserts. Every experiment
 * also asserts that each of its faults applied and healed. Immutable; thread-safe.
 */
public final class Experiments {
  private static final WorkloadSpec STANDARD = WorkloadSpec.standard();

  /** Contention on one lock, long work: where a clock step can cut a holder short. */
  private static final WorkloadSpec CLOCK =
      STANDARD.withClients(4, 1).withWork(Duration.ofMillis(300));

  private static final StorageProcess.Mode SQLITE = StorageProcess.Mode.SQLITE;

  public static final Experiment MINORITY =
      safety(
          "minority-faults",
          "partitions, latency, blackholes, resets, pauses and kills of at most a minority, one at"
              + " a time: mutual exclusion, tokens, the fenced object and the store hold, every"
              + " fault shows as node errors while it lasts",
          FaultMix.MINORITY,
          4,
          STANDARD,
          allOf(
              progress(),
              mutualExclusion(),
              tokens(),
              fencedSafe(),
              durable(),
              live(),
              faultsBit()));

  public static final Experiment CLIENT_FAULTS =
      safety(
          "client-faults",
          "client processes paused (SIGSTOP) or killed (SIGKILL) at once or between the phases of"
              + " an acquire, between fence and put, in a release or in a renewal: mutual"
              + " exclusion, tokens, the fenced object and the store hold (a campaign must signal"
              + " clients: a single run need not reach its window)",
          FaultMix.CLIENT_PROCESS,
          4,
          STANDARD,
          allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), durable(), live()));

  public static final Experiment CLIENT_PAUSE =
      of(
          "client-pause",
          Role.CONTROL,
          "negative control of the canary: holders paused (SIGSTOP) longer than their TTL, at once,"
              + " between the phases of an acquire or after their fence: the unfenced canary loses"
              + " updates, the fenced store rejects every stale write",
          FaultMix.CLIENT_PAUSE,
          3,
          STANDARD,
          false,
          SQLITE,
          allOf(
              progress(),
              tokens(),
              fencedSafe(),
              canaryBites(),
              staleWritesRejected(),
              clientsSignalled()));

  public static final Experiment CLOCK_STEP =
      new Experiment(
          "clock-step",
          "negative control of mutual exclusion: Kleppmann's split, the shared node's clock (and"
              + " sometimes another's) stepped forward by a TTL again and again, then back: mutual"
              + " exclusion breaks, tokens and fencing hold",
          Role.CONTROL,
          FaultMix.CLOCK_STEP,
          2,
          CLOCK,
          5,
          Persistence.AOF_ALWAYS,
          true,
          SQLITE,
          false,
          allOf(faultsApplied(), progress(), tokens(), fencedSafe(), mutualExclusionBroken()));

  public static final Experiment CLOCK_STROBE =
      new Experiment(
          "clock-strobe",
          "Kleppmann's split while the shared node's clock strobes a TTL ahead and back: tokens and"
              + " fencing hold (mutual exclusion is reported)",
          Role.SAFETY,
          FaultMix.CLOCK_STROBE,
          2,
          CLOCK,
          5,
          Persistence.AOF_ALWAYS,
          true,
          SQLITE,
          false,
          allOf(faultsApplied(), progress(), tokens(), fencedSafe()));

  public static final Experiment AMNESIA_UNSAFE =
      new Experiment(
          "amnesia-unsafe",
          "negative control of the token checker: a majority restarts without persistence and"
              + " rejoins at once, init-marker check and token prediction off: token violations are"
              + " found",
          Role.CONTROL,
          FaultMix.AMNESIA,
          1,
          STANDARD.unprotectedFromAmnesia(),
          5,
          Persistence.AOF_ALWAYS,
          false,
          SQLITE,
          true,
          allOf(faultsApplied(), progress(), tokenViolationsFound()));

  public static final Experiment AMNESIA_SAFE =
      new Experiment(
          "amnesia-safe",
          "negative control of liveness: a majority restarts without persistence and rejoins at"
              + " once, init-marker check on: the wiped majority is excluded, no lock is granted"
              + " after the wipe (an outage by design), so tokens and fencing cannot break; this"
              + " shows the exclusion, not safety under re-admission (see readmission)",
          Role.CONTROL,
          FaultMix.AMNESIA,
          1,
          STANDARD,
          5,
          Persistence.AOF_ALWAYS,
          false,
          SQLITE,
          true,
          allOf(faultsApplied(), progress(), tokens(), fencedSafe(), outage()));

  public static final Experiment MAJORITY_DOWN =
      safety(
          "majority-down",
          "a majority is killed, paused or cut off: acquires fail with clear errors, nothing is"
              + " corrupted, locks return within the bound after the heal",
          FaultMix.MAJORITY_DOWN,
          3,
          STANDARD,
          allOf(
              progress(),
              mutualExclusion(),
              tokens(),
              fencedSafe(),
              clearFailures(),
              live(),
              faultsBit()));

  /**
   * What both storage experiments assert: safety, the store's durability, liveness, and that every
   * fault showed.
   */
  private static final Expectation STORAGE_CHECK =
      allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), durable(), live(), faultsBit());

  public static final Experiment STORAGE =
      safety(
          "storage-faults",
          "the storage service killed (restarted at once or later), paused, cut off from clients or"
              + " slowed past their timeout, holders paused across its crashes: writes of unknown"
              + " outcome are INFO (a campaign must have some: a single run need not), the fenced"
              + " object and its highest token survive every crash",
          FaultMix.STORAGE,
          3,
          STANDARD,
          STORAGE_CHECK);

  /**
   * {@link #STORAGE} with the storage service on PostgreSQL (a private server that keeps running
   * while the service is killed and restarted) instead of SQLite.
   */
  public static final Experiment STORAGE_POSTGRES =
      of(
          "storage-faults-postgres",
          Role.SAFETY,
          "storage-faults with the storage service on PostgreSQL (fsync on; the server keeps"
              + " running while the service is killed): writes of unknown outcome are INFO, the"
              + " fenced object and its highest token survive every crash",
          FaultMix.STORAGE,
          3,
          STANDARD,
          false,
          StorageProcess.Mode.POSTGRES,
          STORAGE_CHECK);

  public static final Experiment READMISSION =
      safety(
          "readmission",
          "every client's wall clock a day behind, single nodes wiped and re-admitted: the epoch"
              + " comes from the high-water mark, tokens and fencing hold",
          FaultMix.READMISSION,
          2,
          STANDARD.withClientClocks(),
          allOf(
              progress(),
              mutualExclusion(),
              tokens(),
              fencedSafe(),
              readmittedByHighWater(),
              live()));

  public static final Experiment POWER_LOSS =
      new Experiment(
          "power-loss",
          "outside the design: nodes on appendfsync everysec lose power (their last second of AOF):"
              + " token and mutual-exclusion violations are reported; the fenced store still"
              + " rejects every lower token",
          Role.REPORT,
          FaultMix.POWER_LOSS,
          4,
          STANDARD,
          5,
          Persistence.AOF_EVERYSEC,
          false,
          SQLITE,
          false,
          allOf(faultsApplied(), progress(), fencedSafe(), powerLossBit()));

  public static final Experiment NETWORK =
      safety(
          "network",
          "toxics on a minority: latency above the node timeout, one-way blackholes, toxicity below"
              + " 1, bandwidth and slicer: safety holds",
          FaultMix.NETWORK,
          4,
          STANDARD,
          allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), live(), faultsBit()));

  public static final Experiment COMBINED =
      safety(
          "combined",
          "network, node, client and storage faults overlapping (Jepsen's combined packages):"
              + " safety holds, locks return after the heal",
          FaultMix.COMBINED,
          2,
          STANDARD,
          allOf(progress(), mutualExclusion(), tokens(), fencedSafe(), durable(), live()));

  public static final Experiment UNFENCED_STORE =
      of(
          "control-unfenced-store",
          Role.CONTROL,
          "negative control of the fenced-resource and list-append checkers: the client-pause"
              + " schedule against a store whose token check is off: stale writes are accepted",
          FaultMix.CLIENT_PAUSE,
          3,
          STANDARD,
          false,
          StorageProcess.Mode.ACCEPT_STALE,
          allOf(progress(), fencedBroken(), clientsSignalled()));

  public static final Experiment STORAGE_WIPE =
      of(
          "control-storage-wipe",
          Role.CONTROL,
          "negative control of the durability checker: the storage service restarted with its"
              + " database deleted: its highest token is gone",
          FaultMix.STORAGE_WIPE,
          1,
          STANDARD,
          false,
          SQLITE,
          allOf(progress(), durabilityBroken()));

  private static final List<Experiment> ALL =
      List.of(
          MINORITY,
          CLIENT_FAULTS,
          CLIENT_PAUSE,
          CLOCK_STEP,
          CLOCK_STROBE,
          AMNESIA_UNSAFE,
          AMNESIA_SAFE,
          MAJORITY_DOWN,
          STORAGE,
          STORAGE_POSTGRES,
          READMISSION,
          POWER_LOSS,
          NETWORK,
          COMBINED,
          UNFENCED_STORE,
          STORAGE_WIPE);

  private Experiments() {}

  private static Experiment safety(
      String name,
      String expectation,
      FaultMix mix,
      int faults,
      WorkloadSpec w,
      Expectation check) {
    return of(name, Role.SAFETY, expectation, mix, faults, w, false, SQLITE, check);
  }

  private static Experiment of(
      String name,
      Role role,
      String expectation,
      FaultMix mix,
      int faults,
      WorkloadSpec w,
      boolean nodeClocks,
      StorageProcess.Mode storage,
      Expectation check) {
    return new Experiment(
        name,
        expectation,
        role,
        mix,
        faults,
        w,
        5,
        Persistence.AOF_ALWAYS,
        nodeClocks,
        storage,
        false,
        allOf(faultsApplied(), check));
  }

  /** Every experiment, in a fixed order. */
  public static List<Experiment> all() {
    return ALL;
  }

  /** The experiment with this name. */
  public static Optional<Experiment> byName(String name) {
    return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
  }
}
