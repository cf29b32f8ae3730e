package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.CanaryChecker;
import io.fencedlock.chaos.checker.DurabilityChecker;
import io.fencedlock.chaos.checker.MutualExclusionChecker;
import io.fencedlock.chaos.checker.TokenChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.chaos.nemesis.Link;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Persistence;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Shrinking on real failing runs, one per fault family: a schedule of three or more faults, of
 * which only the family's culprit is needed for the failure and the others are mild faults of other
 * families, fails for real (a checker finds the violation a negative control is built to cause);
 * the real {@link Shrinker}, whose probes are real runs, must return a smaller schedule that still
 * holds a fault of the family, and a replay of that schedule from the {@code results.json} of the
 * shrinker's last failing probe must fail the same way.
 *
 * <p>The culprits are faults that fail every time (a holder paused after its fence far past its
 * TTL, a majority wiped with the remembering nodes cut off, the storage service's database deleted,
 * Kleppmann's split with clock steps, every client's storage requests slowed past the TTL), so the
 * verdicts are deterministic. One bystander comes before the culprit and one after: the shrinker,
 * which tries the last fault first, drops the later bystander, then tries the culprit's last fault
 * (a single-fault culprit stays: its run without it passes), and so on. The budget of three probes
 * keeps the test's time modest (188 s for the five families on the 2-core development machine), so
 * a culprit of several faults (the clock episode) is only partly shrunk.
 */
final class ShrinkChaosIT {
  private static final int CLIENTS = 5;

  /** Enough probes for: drop the later bystander, try the culprit, drop the earlier bystander. */
  private static final int PROBES = 3;

  @Test
  void clientProcessFault_holderPausedAfterItsFence_shrinksToThePause() {
    ScheduledFault pause =
        new ScheduledFault(
            1,
            1500,
            3100,
            new Fault.ClientFault(0, Fault.ClientAction.PAUSE, Point.AFTER_FENCE, 2500));

    shrinkAndReplay(
        Experiments.CLIENT_PAUSE,
        List.of(nodePause(0, 800), pause, latency(2, 4900)),
        CanaryChecker.NAME,
        Fault.ClientFault.class);
  }

  @Test
  void networkFault_storageRepliesSlowedPastTheTtl_shrinksToTheToxic() {
    Set<Link> storageLinks = new java.util.HashSet<>();
    for (int c = 0; c < CLIENTS; c++) {
      storageLinks.add(Link.toStorage(c));
    }
    // 8 s, not 4: the canary loses an update only when a holder that does not renew outlives
    // its lease and another client takes the same resource meanwhile. Over 4 s, runs of the
    // toxic alone lost 1 to 3 updates, and one CI run of the whole schedule none; over 8 s, 3 to 6.
    ScheduledFault slow =
        new ScheduledFault(
            1,
            1500,
            8000,
            new Fault.Toxic(
                "latency",
                storageLinks,
                true,
                1f,
                new java.util.TreeMap<>(java.util.Map.of("latency", 700L))));

    shrinkAndReplay(
        Experiments.CLIENT_PAUSE,
        List.of(nodePause(0, 800), slow, storagePause(2, 9800)),
        CanaryChecker.NAME,
        Fault.Toxic.class);
  }

  @Test
  void nodeFault_majorityWipedWhileTheRestIsCutOff_shrinksToTheKill() {
    long start = 1500;
    ScheduledFault away =
        new ScheduledFault(
            1,
            start,
            2500,
            new Fault.Partition(
                "remembering-nodes-away",
                Grudges.allLose(CLIENTS, Set.of(3, 4)),
                Fault.CutMode.REFUSE));
    ScheduledFault wipe =
        new ScheduledFault(
            2,
            start + 200,
            0,
            new Fault.KillNodes(
                new TreeSet<>(Set.of(0, 1, 2)), Persistence.NONE, Fault.Rejoin.IMMEDIATE));

    shrinkAndReplay(
        Experiments.AMNESIA_UNSAFE,
        List.of(storagePause(0, 800), away, wipe, latency(3, 4300)),
        TokenChecker.NAME,
        Fault.KillNodes.class);
  }

  @Test
  void storageFault_databaseWiped_shrinksToTheWipe() {
    ScheduledFault wipe =
        new ScheduledFault(
            1, 1800, 0, new Fault.StorageFault(Fault.StorageAction.WIPE, Fault.Rejoin.IMMEDIATE));

    shrinkAndReplay(
        Experiments.STORAGE_WIPE,
        List.of(nodePause(0, 800), wipe, latency(2, 2400)),
        DurabilityChecker.NAME,
        Fault.StorageFault.class);
  }

  @Test
  void clockFault_kleppmannSplitWithSteps_shrinksAndKeepsTheSteps() {
    Experiment clockStep = ExperimentRunner.runnable(Experiments.CLOCK_STEP, Backend.PROCESS);
    // The control's own episode (a split and clock steps of the shared node), seeded, moved after
    // an earlier bystander.
    FaultSchedule episode = ExperimentRunner.schedule(clockStep.withFaults(1), 11);
    List<ScheduledFault> faults = new ArrayList<>();
    faults.add(storagePause(0, 300));
    long shift = 900 - episode.faults().get(0).startMillis();
    for (ScheduledFault f : episode.faults()) {
      faults.add(
          new ScheduledFault(
              faults.size(), f.startMillis() + Math.max(0, shift), f.durationMillis(), f.fault()));
    }
    long end = new FaultSchedule(faults).endMillis();
    faults.add(latency(faults.size(), end + 300));

    shrinkAndReplay(clockStep, faults, MutualExclusionChecker.NAME, Fault.ClockStep.class);
  }

  /** How many replays may confirm a shrunk schedule. */
  private static final int REPLAYS = 3;

  /**
   * Runs the schedule, shrinks it with real runs as probes, replays the result from its {@code
   * results.json} and asserts the failure each time.
   */
  private static void shrinkAndReplay(
      Experiment experiment,
      List<ScheduledFault> faults,
      String violatedChecker,
      Class<? extends Fault> family) {
    FaultSchedule schedule = new FaultSchedule(faults);
    long seed = Seeds.next(experiment.name() + "-shrink");
    assertThat(schedule.faults()).hasSizeGreaterThanOrEqualTo(3);
    Predicate<RunReport> failed = r -> r.metrics().verdict(violatedChecker) == Verdict.FALSE;
    try (ProbeRunner probes = new ProbeRunner(experiment, seed)) {
      RunReport original = probes.run(schedule);
      assertThat(failed).as("the full schedule fails: %s", original.dir()).accepts(original);

      Path[] lastFailing = {original.dir().resolve("results.json")};
      Shrinker.Result shrunk =
          Shrinker.shrink(
              schedule,
              candidate -> {
                RunReport r = probes.run(candidate);
                if (failed.test(r)) {
                  lastFailing[0] = r.dir().resolve("results.json");
                  return true;
                }
                return false;
              },
              PROBES);

      assertThat(shrunk.schedule().faults()).hasSizeLessThan(schedule.faults().size());
      assertThat(shrunk.schedule().faults()).anyMatch(f -> family.isInstance(f.fault()));
      RecordedRun recorded = RecordedRun.read(lastFailing[0]);
      assertThat(recorded.schedule()).isEqualTo(shrunk.schedule());
      // A probe is a real, noisy run: the shrunk schedule failed once, and a replay confirms it
      // or not. Seen in CI: the node family's wipe without the partition broke tokens in its
      // probe and not in the replay after it. So it must fail again within a few replays.
      List<Path> replays = new ArrayList<>();
      boolean failedAgain = false;
      for (int i = 0; i < REPLAYS && !failedAgain; i++) {
        RunReport replay = probes.run(recorded.schedule());
        replays.add(replay.dir());
        failedAgain = failed.test(replay);
      }
      assertThat(failedAgain)
          .as("the shrunk schedule fails again in one of %d replays: %s", REPLAYS, replays)
          .isTrue();
    }
  }

  private static ScheduledFault nodePause(int id, long start) {
    return new ScheduledFault(id, start, 500, new Fault.PauseNodes(new TreeSet<>(Set.of(4))));
  }

  private static ScheduledFault latency(int id, long start) {
    return new ScheduledFault(id, start, 600, new Fault.Latency(Set.of(new Link(1, 4)), 30, 5));
  }

  private static ScheduledFault storagePause(int id, long start) {
    return new ScheduledFault(
        id, start, 200, new Fault.StorageFault(Fault.StorageAction.PAUSE, Fault.Rejoin.IMMEDIATE));
  }
}
