package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The target math on made-up figures: no Redis, no timing. */
final class TargetsTest {
  private static final long OPS = 1_000;
  private static final Duration WINDOW = Duration.ofSeconds(1);

  private final Map<String, ScenarioResult> run = new LinkedHashMap<>();

  @Test
  void check_scenario1_comparesWithFloorRawAndMissedTargetsShowAsMissed() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_RAW, measurement(400, 100));
    s1.add(Systems.UNFENCED, measurement(420, 140)); // 1.05× the p50, 1.4× the CPU
    s1.add(Systems.FENCED, measurement(480, 160)); // 1.20× the p50, 1.6× the CPU

    Map<String, Target> targets = byName(Targets.check(run));

    assertTarget(targets.get("s1.unfenced_p50_over_floorRaw"), 1.05, 1.10, true);
    assertTarget(targets.get("s1.fenced_p50_over_floorRaw"), 1.20, 1.15, false);
    assertTarget(targets.get("s1.unfenced_cpu_per_op_over_floorRaw"), 1.4, 1.5, true);
    assertTarget(targets.get("s1.fenced_cpu_per_op_over_floorRaw"), 1.6, 1.5, false);
    assertThat(targets.get("s1.fenced_p50_over_floorRaw").atMost()).isTrue();
  }

  @Test
  void check_redissonTargetOfScenario1_takesNineTenthsOfWhatFloorNAllowsInTheSameRun() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_N, measurement(400, 100));
    s1.add(
        Systems.REDISSON_REDLOCK,
        measurement(2_000, 100)); // floor-N allows 5×, so the limit is 4.5×
    s1.add(Systems.FENCED, measurement(480, 100)); // 4.17×: missed
    s1.add(Systems.UNFENCED, measurement(420, 100)); // 4.76×: met

    Map<String, Target> targets = byName(Targets.check(run));

    assertTarget(targets.get("s1.redissonRedLock_p50_over_fenced"), 2_000 / 480.0, 4.5, false);
    assertTarget(targets.get("s1.redissonRedLock_p50_over_unfenced"), 2_000 / 420.0, 4.5, true);
    assertThat(targets.get("s1.redissonRedLock_p50_over_fenced").limitRule())
        .contains("0.9 × s1.redissonRedLock_p50_over_floorN");
  }

  @Test
  void check_handoffs_inHalvesOfFloorRawsScenario1P50() {
    scenario("1").add(Systems.FLOOR_RAW, measurement(400, 100)); // a round trip is 200 µs
    ScenarioResult s3 = scenario("3");
    s3.add(Systems.FENCED, measurement(450, 100)); // 2.25 RT
    s3.add(Systems.UNFENCED, measurement(520, 100)); // 2.6 RT
    s3.add(Systems.FENCED_SEPARATE, measurement(900, 100)); // 4.5 RT
    s3.add(Systems.REDISSON_REDLOCK, measurement(800, 100));

    Map<String, Target> targets = byName(Targets.check(run));

    assertTarget(targets.get("s3.fenced_handoff_p50_in_round_trips"), 2.25, 2.5, true);
    assertTarget(targets.get("s3.unfenced_handoff_p50_in_round_trips"), 2.6, 2.5, false);
    assertTarget(targets.get("s3.fenced8instances_handoff_p50_in_round_trips"), 4.5, 4, false);
    assertTarget(targets.get("s3.fenced_handoff_p50_over_redissonRedLock"), 450 / 800.0, 1, true);
    assertTarget(
        targets.get("s3.fenced8instances_handoff_p50_over_redissonRedLock"), 900 / 800.0, 1, false);
  }

  @Test
  void check_throughputAndOneMany_againstFloorRaw() {
    ScenarioResult s2 = scenario("2");
    s2.add(Systems.FLOOR_RAW, measurement(400, 100, 10_000));
    s2.add(Systems.FENCED, measurement(400, 100, 9_000));
    s2.add(Systems.UNFENCED, measurement(400, 100, 8_000));
    ScenarioResult many = scenario("1-many");
    many.add(Systems.FLOOR_RAW, measurement(400, 100));
    many.add(Systems.FENCED, measurement(440, 100));
    many.add(Systems.UNFENCED, measurement(460, 100));

    Map<String, Target> targets = byName(Targets.check(run));

    assertTarget(targets.get("s2.fenced_ops_over_floorRaw"), 0.9, 0.9, true);
    assertTarget(targets.get("s2.unfenced_ops_over_floorRaw"), 0.8, 0.9, false);
    assertThat(targets.get("s2.fenced_ops_over_floorRaw").atMost()).isFalse();
    assertTarget(targets.get("s1-many.fenced_p50_over_floorRaw"), 1.10, 1.15, true);
    assertTarget(targets.get("s1-many.unfenced_p50_over_floorRaw"), 1.15, 1.10, false);
  }

  @Test
  void check_perRepetition_givesTheSpreadOfTheSameRatio() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_RAW, measurement(400, 100));
    s1.add(Systems.FENCED, measurement(440, 100)); // 1.10 in repetition 1
    s1.add(Systems.FLOOR_RAW, measurement(500, 100));
    s1.add(Systems.FENCED, measurement(600, 100)); // 1.20 in repetition 2

    Target fenced = byName(Targets.check(run)).get("s1.fenced_p50_over_floorRaw");

    assertThat(fenced.repetitions()).isNotNull();
    assertThat(fenced.repetitions().min()).isCloseTo(1.10, within(0.01));
    assertThat(fenced.repetitions().max()).isCloseTo(1.20, within(0.01));
    assertThat(fenced.value()).isCloseTo(520 / 450.0, within(0.01)); // ratio of the medians
  }

  @Test
  void check_systemThatDidNotRun_givesNoValueAndIsNotMet_scenarioThatDidNotRunNoTarget() {
    scenario("1").add(Systems.FLOOR_RAW, measurement(400, 100));

    List<Target> targets = Targets.check(run);

    Target fenced = byName(targets).get("s1.fenced_p50_over_floorRaw");
    assertThat(fenced.value()).isNaN();
    assertThat(fenced.met()).isFalse();
    assertThat(targets).noneMatch(t -> t.name().startsWith("s2.") || t.name().startsWith("s4."));
  }

  @Test
  void check_eachTargetReportsTheFloorOfItsKindHeldToTheSameLimit() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_RAW, measurement(400, 100)); // a round trip is 200 µs
    s1.add(Systems.FLOOR_RAW_CAD, measurement(420, 110)); // 1.05×: meets ≤ 1.10
    s1.add(Systems.FLOOR_RAW_FENCED, measurement(500, 120)); // 1.25×: misses ≤ 1.15
    s1.add(Systems.UNFENCED, measurement(480, 130));
    s1.add(Systems.FENCED, measurement(560, 170));
    s1.add(Systems.REDISSON_REDLOCK, measurement(2_000, 100));
    s1.add(Systems.FLOOR_N, measurement(400, 100)); // the Redisson limit is 4.5×
    ScenarioResult s2 = scenario("2");
    s2.add(Systems.FLOOR_RAW, measurement(400, 100, 10_000));
    s2.add(Systems.FLOOR_RAW_FENCED, measurement(400, 100, 6_000));
    s2.add(Systems.FENCED, measurement(400, 100, 5_000));
    ScenarioResult s3 = scenario("3");
    s3.add(Systems.FLOOR_RAW_HANDOFF_SCRIPT, measurement(600, 100)); // 3 RT
    s3.add(Systems.FLOOR_RAW_HANDOFF_2_STEPS_SCRIPT, measurement(700, 100)); // 3.5 RT
    s3.add(Systems.FENCED, measurement(800, 100));
    s3.add(Systems.UNFENCED, measurement(700, 100));
    s3.add(Systems.FENCED_SEPARATE, measurement(1_000, 100));
    s3.add(Systems.REDISSON_REDLOCK, measurement(900, 100));
    scenario("1-many").add(Systems.FLOOR_RAW, measurement(400, 100));
    run.get("1-many").add(Systems.FENCED, measurement(500, 100));
    ScenarioResult s4 = scenario("4");
    s4.add(Systems.REDISSON_REDLOCK, measurement(4_000, 100));
    s4.add(Systems.FENCED, measurement(1_000, 100));

    Map<String, Target> targets = byName(Targets.check(run));

    assertFloor(targets.get("s1.unfenced_p50_over_floorRaw"), "floor-raw-cad", 1.05, true);
    assertFloor(targets.get("s1.fenced_p50_over_floorRaw"), "floor-raw-fenced", 1.25, false);
    assertFloor(targets.get("s1.fenced_cpu_per_op_over_floorRaw"), "floor-raw-fenced", 1.2, true);
    assertFloor(targets.get("s2.fenced_ops_over_floorRaw"), "floor-raw-fenced", 0.6, false);
    assertFloor(
        targets.get("s3.fenced_handoff_p50_in_round_trips"), "floor-raw-handoff-script", 3, false);
    assertFloor(
        targets.get("s3.unfenced_handoff_p50_in_round_trips"),
        "floor-raw-handoff-script",
        3,
        false);
    assertFloor(
        targets.get("s3.fenced8instances_handoff_p50_in_round_trips"),
        "floor-raw-handoff-2-steps-script",
        3.5,
        true);
    assertFloor(
        targets.get("s3.fenced8instances_handoff_p50_over_redissonRedLock"),
        "floor-raw-handoff-2-steps-script",
        700 / 900.0,
        true);
    assertFloor(targets.get("s1.redissonRedLock_p50_over_fenced"), "floor-raw-fenced", 4.0, false);
    assertFloor(
        targets.get("s1.redissonRedLock_p50_over_unfenced"), "floor-raw-cad", 2_000 / 420.0, true);
    // Ours is still the target's value; the floor's figure only stands beside it.
    assertTarget(targets.get("s1.fenced_p50_over_floorRaw"), 1.40, 1.15, false);
    assertThat(targets.get("s2.unfenced_ops_over_floorRaw").floorOfItsKind())
        .as("a floor that did not run (floor-raw-cad in scenario 2)")
        .isNull();
    assertThat(targets.get("s1-many.fenced_p50_over_floorRaw").floorOfItsKind())
        .as("scenario 1-many runs no scripted floor")
        .isNull();
    assertThat(targets.get("s4.redissonRedLock_p50_over_fenced").floorOfItsKind())
        .as("nor does scenario 4")
        .isNull();
  }

  @Test
  void tables_showTheFloorOfItsKindBesideEachTarget() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_RAW, measurement(400, 100));
    s1.add(Systems.FLOOR_RAW_FENCED, measurement(500, 120));
    s1.add(Systems.FENCED, measurement(560, 170));
    s1.add(Systems.UNFENCED, measurement(420, 130)); // its floor, floor-raw-cad, did not run

    String markdown = Tables.markdown(run, Targets.check(run));

    assertThat(markdown)
        .containsPattern(
            "\\| s1\\.fenced_cpu_per_op_over_floorRaw \\|.*\\| floor-raw-fenced 1\\.20, met \\|")
        .containsPattern("\\| s1\\.unfenced_p50_over_floorRaw \\|.*\\| yes \\| – \\|")
        .contains("| s1.fenced_p50_over_floorRaw | 1.40 |")
        .containsPattern(
            "\\| s1\\.fenced_p50_over_floorRaw \\|.*\\| floor-raw-fenced 1\\.25,"
                + " \\*\\*missed\\*\\* \\|");
  }

  @Test
  void references_handoffInFloorNRoundTrips_andAllocationAgainstFloorRaw() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_N, measurement(500, 100));
    s1.add(Systems.FLOOR_RAW, measurement(400, 100, OPS, 1_000));
    s1.add(Systems.FENCED, measurement(480, 100, OPS, 3_000));
    scenario("3").add(Systems.FENCED, measurement(500, 100));

    Map<String, Double> references = referencesByName();

    assertThat(references.get("s3.fenced_handoff_p50_in_floorN_round_trips"))
        .isCloseTo(2.0, within(0.01));
    assertThat(references.get("s1.fenced_allocated_bytes_per_op_over_floorRaw"))
        .isCloseTo(3.0, within(0.01));
  }

  @Test
  void references_scenario1IdleAgainstScenario1_andHandoffsInIdleRoundTrips() {
    scenario("1").add(Systems.FLOOR_RAW, measurement(100, 100));
    ScenarioResult idle = scenario("1-idle");
    idle.add(Systems.FLOOR_RAW, measurement(250, 100));
    idle.add(Systems.FENCED, measurement(300, 100));
    scenario("3").add(Systems.FENCED_SEPARATE, measurement(500, 100));

    Map<String, Double> references = referencesByName();

    assertThat(references.get("s1-idle.floorRaw_p50_over_s1")).isCloseTo(2.5, within(0.01));
    assertThat(references.get("s1-idle.fenced_p50_over_floorRaw")).isCloseTo(1.2, within(0.01));
    // The idle surcharge is 250 - 100 = 150 µs: 500 - 150 = 350 µs, in round trips of 50 µs.
    assertThat(Targets.idleSurchargeMicros(run.get("1"), idle)).isCloseTo(150, within(0.5));
    assertThat(references.get("s3.fenced8instances_handoff_p50_less_idle_surcharge_in_round_trips"))
        .isCloseTo(7.0, within(0.01));
    assertThat(byName(Targets.check(run)).get("s3.fenced8instances_handoff_p50_in_round_trips"))
        .as("the target still counts scenario 1's round trips")
        .satisfies(t -> assertThat(t.value()).isCloseTo(10.0, within(0.01)));
  }

  @Test
  void references_handoffsAgainstTheRawHandoffFloors_andTheFloorInRoundTrips() {
    scenario("1").add(Systems.FLOOR_RAW, measurement(100, 100)); // RT 50 µs
    ScenarioResult s3 = scenario("3");
    s3.add(Systems.FLOOR_RAW_HANDOFF, measurement(200, 100));
    s3.add(Systems.FLOOR_RAW_HANDOFF_SCRIPT, measurement(250, 100));
    s3.add(Systems.FLOOR_RAW_HANDOFF_2_STEPS, measurement(320, 100));
    s3.add(Systems.FLOOR_RAW_HANDOFF_2_STEPS_SCRIPT, measurement(400, 100));
    s3.add(Systems.FENCED, measurement(300, 100));
    s3.add(Systems.FENCED_SEPARATE, measurement(500, 100));

    Map<String, Double> references = referencesByName();

    assertThat(references.get("s3.floorRawHandoff_handoff_p50_in_round_trips"))
        .isCloseTo(4.0, within(0.01));
    assertThat(references.get("s3.floorRawHandoffScript_handoff_p50_over_floorRawHandoff"))
        .isCloseTo(1.25, within(0.01));
    assertThat(references.get("s3.fenced_handoff_p50_over_floorRawHandoff"))
        .isCloseTo(1.5, within(0.01));
    assertThat(references.get("s3.fenced_handoff_p50_over_floorRawHandoffScript"))
        .isCloseTo(1.2, within(0.01));
    assertThat(references.get("s3.fenced8instances_handoff_p50_over_floorRawHandoffScript"))
        .isCloseTo(2.0, within(0.01));
    assertThat(references.get("s3.unfenced_handoff_p50_over_floorRawHandoff"))
        .as("a system that did not run")
        .isNaN();
    assertThat(references.get("s3.floorRawHandoff2StepsScript_handoff_p50_in_round_trips"))
        .isCloseTo(8.0, within(0.01));
    assertThat(
            references.get("s3.floorRawHandoff2StepsScript_handoff_p50_over_floorRawHandoff2Steps"))
        .isCloseTo(1.25, within(0.01));
    assertThat(references.get("s3.fenced8instances_handoff_p50_over_floorRawHandoff2Steps"))
        .isCloseTo(1.56, within(0.01));
    assertThat(references.get("s3.fenced8instances_handoff_p50_over_floorRawHandoff2StepsScript"))
        .isCloseTo(1.25, within(0.01));
    assertThat(references)
        .doesNotContainKey("s3.floorRawHandoffScript_handoff_p50_over_floorRawHandoffScript");
  }

  @Test
  void references_scriptedFloorsAgainstFloorRaw_andOursAgainstTheFloorOfItsKind() {
    ScenarioResult s1 = scenario("1");
    s1.add(Systems.FLOOR_RAW, withServerCpu(100, 100, 100));
    s1.add(Systems.FLOOR_RAW_CAD, withServerCpu(110, 100, 130));
    s1.add(Systems.FLOOR_RAW_FENCED, withServerCpu(130, 105, 170));
    s1.add(Systems.UNFENCED, withServerCpu(121, 120, 143));
    s1.add(Systems.FENCED, withServerCpu(156, 126, 204));
    ScenarioResult s2 = scenario("2");
    s2.add(Systems.FLOOR_RAW, measurement(100, 100, 10_000));
    s2.add(Systems.FLOOR_RAW_CAD, measurement(100, 100, 8_000));
    s2.add(Systems.FLOOR_RAW_FENCED, measurement(100, 100, 5_000));
    s2.add(Systems.UNFENCED, measurement(100, 100, 6_000));
    s2.add(Systems.FENCED, measurement(100, 100, 4_000));

    Map<String, Double> references = referencesByName();

    assertThat(references.get("s1.floorRawCad_p50_over_floorRaw")).isCloseTo(1.1, within(0.01));
    assertThat(references.get("s1.floorRawFenced_p50_over_floorRaw")).isCloseTo(1.3, within(0.01));
    assertThat(references.get("s1.unfenced_p50_over_floorRawCad")).isCloseTo(1.1, within(0.01));
    assertThat(references.get("s1.fenced_p50_over_floorRawFenced")).isCloseTo(1.2, within(0.01));
    assertThat(references.get("s1.fenced_cpu_per_op_over_floorRawFenced"))
        .isCloseTo(1.2, within(0.01));
    assertThat(references.get("s1.floorRawFenced_cpu_per_op_over_floorRaw"))
        .isCloseTo(1.05, within(0.01));
    assertThat(references.get("s1.floorRawCad_server_cpu_per_op_over_floorRaw"))
        .isCloseTo(1.3, within(0.01));
    assertThat(references.get("s1.unfenced_server_cpu_per_op_over_floorRawCad"))
        .isCloseTo(1.1, within(0.01));
    assertThat(references.get("s1.fenced_server_cpu_per_op_over_floorRawFenced"))
        .isCloseTo(1.2, within(0.01));
    assertThat(references.get("s2.floorRawCad_ops_over_floorRaw")).isCloseTo(0.8, within(0.01));
    assertThat(references.get("s2.floorRawFenced_ops_over_floorRaw")).isCloseTo(0.5, within(0.01));
    assertThat(references.get("s2.unfenced_ops_over_floorRawCad")).isCloseTo(0.75, within(0.01));
    assertThat(references.get("s2.fenced_ops_over_floorRawFenced")).isCloseTo(0.8, within(0.01));
    assertThat(references).doesNotContainKey("s2.fenced_p50_over_floorRawFenced");
  }

  private ScenarioResult scenario(String id) {
    return run.computeIfAbsent(
        id, i -> new ScenarioResult(new StorageBench.Titled(i, "scenario " + i)));
  }

  private static Measurement measurement(double p50Micros, double cpuMicrosPerOp) {
    return measurement(p50Micros, cpuMicrosPerOp, OPS, 2_000);
  }

  private static Measurement measurement(double p50Micros, double cpuMicrosPerOp, long ops) {
    return measurement(p50Micros, cpuMicrosPerOp, ops, 2_000);
  }

  /** One second of {@link #OPS} operations, with the servers' CPU per operation too. */
  private static Measurement withServerCpu(
      double p50Micros, double cpuMicrosPerOp, double serverCpuMicrosPerOp) {
    return measurement(p50Micros, cpuMicrosPerOp, OPS, 2_000, serverCpuMicrosPerOp);
  }

  /** {@code ops} operations of exactly {@code p50Micros} in one second, costing what is given. */
  private static Measurement measurement(
      double p50Micros, double cpuMicrosPerOp, long ops, long bytesPerOp) {
    return measurement(p50Micros, cpuMicrosPerOp, ops, bytesPerOp, -1);
  }

  /** The same, with the servers' CPU per operation (negative: not measured). */
  private static Measurement measurement(
      double p50Micros,
      double cpuMicrosPerOp,
      long ops,
      long bytesPerOp,
      double serverCpuMicrosPerOp) {
    Histogram latencies = Measurement.newHistogram();
    latencies.recordValueWithCount((long) (p50Micros * 1_000), ops);
    long serverCpuNanos =
        serverCpuMicrosPerOp < 0 ? -1 : (long) (serverCpuMicrosPerOp * 1_000 * ops);
    ClientCost cost =
        new ClientCost((long) (cpuMicrosPerOp * 1_000 * ops), bytesPerOp * ops, serverCpuNanos);
    return new Measurement(latencies, WINDOW.toNanos(), 0, 0, "", cost);
  }

  private static Map<String, Target> byName(List<Target> targets) {
    return targets.stream().collect(Collectors.toMap(Target::name, Function.identity()));
  }

  private static void assertTarget(Target target, double value, double limit, boolean met) {
    assertThat(target).isNotNull();
    assertThat(target.value()).as(target.name()).isCloseTo(value, within(value * 0.005));
    assertThat(target.limit()).as(target.name()).isCloseTo(limit, within(limit * 0.005));
    assertThat(target.met()).as(target.name() + " met").isEqualTo(met);
  }

  private static void assertFloor(Target target, String floor, double value, boolean met) {
    assertThat(target).isNotNull();
    Target.FloorCheck check = target.floorOfItsKind();
    assertThat(check).as(target.name() + "'s floor").isNotNull();
    assertThat(check.system()).as(target.name()).isEqualTo(floor);
    assertThat(check.value()).as(target.name()).isCloseTo(value, within(value * 0.005));
    assertThat(check.met()).as(target.name() + "'s floor met").isEqualTo(met);
  }

  /** The run's references, by name. */
  private Map<String, Double> referencesByName() {
    return Targets.references(run).stream()
        .collect(Collectors.toMap(Targets.Reference::name, Targets.Reference::value));
  }
}
