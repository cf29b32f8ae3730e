package io.fencedlock.bench;

import io.fencedlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A targeted measurement for one change at a time: one scenario, a few systems, many short rounds,
 * each round's figures divided by floor-raw's of the same round (scenario 3's: floor-raw-handoff's,
 * if it runs), and the median and range of those ratios printed. Not part of {@code ./fencedlock
 * bench}; run it with the benchmark's class path:
 *
 * <pre>
 * java -cp redlock-benchmarks/target/classes:$(cat redlock-benchmarks/target/classpath.txt) \
 *     io.fencedlock.bench.Probe 1 ROUNDS SECONDS floor-raw,redlock-unfenced,redlock-fenced
 * </pre>
 *
 * A system named {@code NAME@DIR} is this project's Redlock ({@code redlock-unfenced}, {@code
 * redlock-fenced} or {@code redlock-fenced-8-instances}) with redlock-core's classes taken from
 * {@code DIR} and its libraries (Lettuce, Netty) loaded once more beside it ({@link Isolated}): so
 * two builds of the client can be measured in the same run, in turns.
 *
 * <p>{@code driver-fenced} and {@code driver-fenced-named} ({@link DriverFloorSystem}) run only
 * here: the library's driver and scripts under the least quorum logic, to tell their cost from the
 * algorithm's.
 *
 * <p>Scenarios 1, 1-many and 1-idle measure the systems of a round in 100 ms turns (as the
 * benchmark does); scenarios 2 and 3 run them one after another, starting one system later each
 * round. Figures: p50 (µs), ops/s, client CPU µs per operation, bytes allocated per operation, the
 * Redis servers' CPU µs per operation ({@link ServerCpu}).
 */
public final class Probe {
  private Probe() {}

  /** Counts of the "+counted" systems, printed at the end. */
  static final Counts COUNTS = new Counts();

  /** What the "+counted" systems report: lock-step replies by status, acquire calls, handoffs. */
  static final class Counts implements io.fencedlock.redlock.RedlockMetrics {
    final java.util.concurrent.atomic.LongAdder granted =
        new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder other = new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder acquires =
        new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder handoffs =
        new java.util.concurrent.atomic.LongAdder();

    @Override
    public void nodeReply(io.fencedlock.redlock.NodeStatus status) {
      (status == io.fencedlock.redlock.NodeStatus.GRANTED ? granted : other).increment();
    }

    @Override
    public void acquired(long nanos, boolean ok) {
      acquires.increment();
    }

    @Override
    public void handoff() {
      handoffs.increment();
    }

    @Override
    public String toString() {
      long replies = granted.sum() + other.sum();
      return String.format(
          "counted: %d acquire calls, %d lock steps (%.2f per acquire), %d grants, %d other"
              + " replies, %d local handoffs",
          acquires.sum(),
          replies / 5,
          replies / 5.0 / Math.max(1, acquires.sum()),
          granted.sum(),
          other.sum(),
          handoffs.sum());
    }
  }

  public static void main(String[] args) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.log.io.fencedlock.redlock.DefaultRedlock", "error");
    if (args.length < 4) {
      System.err.println(
          "usage: Probe SCENARIO(1|1-many|1-idle|2|3) ROUNDS SECONDS SYSTEM,SYSTEM,...");
      System.exit(2);
    }
    String scenarioId = args[0];
    int rounds = Integer.parseInt(args[1]);
    Duration measure = Duration.ofMillis((long) (Double.parseDouble(args[2]) * 1000));
    List<String> names = Arrays.asList(args[3].split(","));
    try (RedisNodes redis = RedisNodes.start(5)) {
      List<LockSystem> systems = open(names, redis.uris());
      try {
        run(scenarioId, rounds, measure, systems, ServerCpu.of(redis));
      } finally {
        Systems.closeAll(systems);
      }
    }
  }

  private static List<LockSystem> open(List<String> names, List<String> uris) {
    int quorum = uris.size() / 2 + 1;
    List<LockSystem> systems = new ArrayList<>();
    for (String name : names) {
      int at = name.indexOf('@');
      if (at > 0) {
        systems.add(Isolated.open(name.substring(0, at), name.substring(at + 1), uris));
        continue;
      }
      if (Systems.HANDOFF_STEPS.containsKey(name)) {
        systems.add(new FloorRawHandoffSystem(name, uris, quorum, Systems.HANDOFF_STEPS.get(name)));
        continue;
      }
      systems.add(
          switch (name) {
            case Systems.FLOOR_RAW -> new FloorRawSystem(name, uris, quorum);
            case Systems.FLOOR_RAW_CAD ->
                new FloorRawSystem(name, uris, quorum, FloorRawSystem.Steps.COMPARE_AND_DELETE);
            case Systems.FLOOR_RAW_FENCED ->
                new FloorRawSystem(name, uris, quorum, FloorRawSystem.Steps.FENCED);
            case Systems.FLOOR_N -> new FloorSystem(name, uris, quorum);
            case Systems.FLOOR_N_CAD -> new FloorSystem(name, uris, quorum, true, "1");
            case Systems.UNFENCED -> new OurRedlockSystem(name, uris, false);
            case Systems.FENCED -> new OurRedlockSystem(name, uris, true);
            case Systems.FENCED_SEPARATE ->
                new SeparateRedlocksSystem(name, uris, HandoffScenario.CLIENTS);
            case Systems.FENCED_SEPARATE + "+counted" ->
                new SeparateRedlocksSystem(name, uris, HandoffScenario.CLIENTS, COUNTS);
            case Systems.FENCED + "+counted" -> new OurRedlockSystem(name, uris, true, COUNTS);
            case Systems.REDISSON_REDLOCK -> new RedissonRedLockSystem(uris);
            case DriverFloorSystem.NAME, DriverFloorSystem.NAMED ->
                new DriverFloorSystem(name, uris, quorum);
            default -> throw new IllegalArgumentException("unknown system " + name);
          });
    }
    return systems;
  }

  private static Scenario scenario(String id, ServerCpu servers) {
    return switch (id) {
      case "1" -> new UncontendedScenario("1", "probe", 1, servers);
      case "1-many" ->
          new UncontendedScenario("1-many", "probe", UncontendedScenario.MANY, servers);
      case "1-idle" -> UncontendedScenario.afterIdle(servers);
      case "2" -> new ThroughputScenario(servers);
      case "3" -> new HandoffScenario(servers);
      default -> throw new IllegalArgumentException("unknown scenario " + id);
    };
  }

  private static void run(
      String scenarioId,
      int rounds,
      Duration measure,
      List<LockSystem> systems,
      ServerCpu servers) {
    Scenario scenario = scenario(scenarioId, servers);
    Map<String, List<Stats>> byName = new LinkedHashMap<>();
    systems.forEach(s -> byName.put(s.name(), new ArrayList<>()));
    for (int round = 0; round < rounds; round++) {
      Window window = new Window(Duration.ofMillis(round == 0 ? 2000 : 500), measure);
      List<Measurement> measured;
      if (scenario instanceof TurnTakingScenario turns) {
        measured = turns.runInTurns(systems, window);
      } else {
        Measurement[] each = new Measurement[systems.size()];
        for (int k = 0; k < systems.size(); k++) {
          int i = (k + round) % systems.size();
          each[i] = scenario.run(systems.get(i), window);
        }
        measured = Arrays.asList(each);
      }
      StringBuilder line = new StringBuilder("round " + round + ":");
      for (int i = 0; i < systems.size(); i++) {
        Stats stats = measured.get(i).stats();
        byName.get(systems.get(i).name()).add(stats);
        line.append(
            String.format(
                "  %s p50 %.1f max %.1f ops %.0f cpu %.1f srv %.1f err %d",
                systems.get(i).name(),
                stats.p50(),
                stats.max(),
                stats.opsPerSec(),
                stats.cpuMicrosPerOp(),
                stats.serverCpuMicrosPerOp(),
                stats.errors()));
      }
      System.err.println(line);
    }
    if (COUNTS.acquires.sum() > 0) {
      System.out.println(COUNTS);
    }
    List<Stats> base =
        byName.get(scenarioId.equals("3") ? Systems.FLOOR_RAW_HANDOFF : Systems.FLOOR_RAW);
    System.out.printf("scenario %s, %d rounds of %d ms%n", scenarioId, rounds, measure.toMillis());
    for (Map.Entry<String, List<Stats>> e : byName.entrySet()) {
      List<Stats> s = e.getValue();
      System.out.printf(
          "%-28s p50 %s  ops %s  cpu/op %s  B/op %s  srv/op %s%n",
          e.getKey(),
          summary(s, base, Stats::p50),
          summary(s, base, Stats::opsPerSec),
          summary(s, base, Stats::cpuMicrosPerOp),
          summary(s, base, Stats::allocatedBytesPerOp),
          summary(s, base, Stats::serverCpuMicrosPerOp));
    }
  }

  private static String summary(
      List<Stats> own, List<Stats> base, java.util.function.ToDoubleFunction<Stats> figure) {
    double[] values = own.stream().mapToDouble(figure).sorted().toArray();
    String text = String.format("%.1f", median(values));
    if (base == null || base == own) {
      return text;
    }
    double[] ratios = new double[own.size()];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = figure.applyAsDouble(own.get(i)) / figure.applyAsDouble(base.get(i));
    }
    Arrays.sort(ratios);
    return String.format(
        "%s (%.2fx [%.2f-%.2f])", text, median(ratios), ratios[0], ratios[ratios.length - 1]);
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
