package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Turn taking, with stand-in systems whose operation takes exactly a millisecond of a manual clock:
 * no Redis, no waiting on the wall clock, the same turns on any machine.
 */
final class UncontendedScenarioTest {
  private final AtomicLong clock = new AtomicLong();

  @Test
  void runInTurns_measuresEverySystemForTheWindow_inAlternatingTurns() {
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    List<LockSystem> systems =
        List.of(new StandIn("a", calls), new StandIn("b", calls), new StandIn("c", calls));
    Duration measure = Duration.ofMillis(600);

    List<Measurement> measurements =
        new UncontendedScenario("1", "test", 1, ServerCpu.NONE, clock::get)
            .runInTurns(systems, new Window(Duration.ZERO, measure));

    assertThat(measurements).hasSize(3);
    assertThat(measurements)
        .allSatisfy(
            m -> {
              assertThat(m.elapsedNanos()).isEqualTo(measure.toNanos());
              assertThat(m.latencies().getTotalCount()).isPositive();
              assertThat(m.errors()).isZero();
            });
    // 600 ms in turns of 100 ms: each system gets the machine six separate times.
    int switches = 0;
    for (int i = 1; i < calls.size(); i++) {
      switches += calls.get(i).equals(calls.get(i - 1)) ? 0 : 1;
    }
    assertThat(switches).isEqualTo(3 * 6 - 1);
  }

  @Test
  void runInTurns_rotatesTheOrder_soNoSystemAlwaysFollowsTheSameOne() {
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    List<LockSystem> systems =
        List.of(new StandIn("a", calls), new StandIn("b", calls), new StandIn("c", calls));

    new UncontendedScenario("1", "test", 1, ServerCpu.NONE, clock::get)
        .runInTurns(systems, new Window(Duration.ZERO, Duration.ofMillis(600)));

    Map<String, Set<String>> predecessors = new HashMap<>();
    for (int i = 1; i < calls.size(); i++) {
      if (!calls.get(i).equals(calls.get(i - 1))) {
        predecessors.computeIfAbsent(calls.get(i), k -> new HashSet<>()).add(calls.get(i - 1));
      }
    }
    assertThat(predecessors).containsOnlyKeys("a", "b", "c");
    assertThat(predecessors.values())
        .as("turns taken after each system")
        .allSatisfy(p -> assertThat(p).hasSize(2));
  }

  @Test
  void runInTurns_countsRefusalsAsErrorsOfTheirOwnSystem() {
    LockSystem refusing =
        new StandIn("refusing", Collections.synchronizedList(new ArrayList<>())) {
          @Override
          public Held acquire(String resource, Duration maxWait) {
            super.acquire(resource, maxWait); // a refusal takes its millisecond too
            throw new NotGrantedException("held");
          }
        };
    List<LockSystem> systems =
        List.of(new StandIn("ok", Collections.synchronizedList(new ArrayList<>())), refusing);

    List<Measurement> measurements =
        new UncontendedScenario("1", "test", 1, ServerCpu.NONE, clock::get)
            .runInTurns(systems, new Window(Duration.ZERO, Duration.ofMillis(200)));

    assertThat(measurements.get(0).errors()).isZero();
    assertThat(measurements.get(1).errors()).isPositive();
    assertThat(measurements.get(1).firstError()).isEqualTo("held");
  }

  @Test
  void runInTurns_clientCost_goesToTheSystemWhoseTurnItWas() {
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicReference<byte[]> sink =
        new java.util.concurrent.atomic.AtomicReference<>();
    LockSystem allocating =
        new StandIn("allocating", calls) {
          @Override
          public Held acquire(String resource, Duration maxWait) {
            sink.set(new byte[ALLOCATED_PER_OP]); // kept reachable, so it cannot be optimized away
            return super.acquire(resource, maxWait);
          }
        };
    LockSystem burning =
        new StandIn("burning", calls) {
          @Override
          public Held acquire(String resource, Duration maxWait) {
            burnCpu(CPU_PER_OP_NANOS);
            return super.acquire(resource, maxWait);
          }
        };
    List<LockSystem> systems = List.of(allocating, burning, new StandIn("idle", calls));

    List<Measurement> m =
        new UncontendedScenario("1", "test", 1, ServerCpu.NONE, clock::get)
            .runInTurns(systems, new Window(Duration.ZERO, Duration.ofMillis(200)));

    Stats allocatingStats = m.get(0).stats();
    Stats burningStats = m.get(1).stats();
    Stats idleStats = m.get(2).stats();
    assertThat(allocatingStats.allocatedBytesPerOp())
        .isBetween((double) ALLOCATED_PER_OP, ALLOCATED_PER_OP * 1.2);
    assertThat(burningStats.allocatedBytesPerOp()).isLessThan(ALLOCATED_PER_OP / 10.0);
    assertThat(idleStats.allocatedBytesPerOp()).isLessThan(ALLOCATED_PER_OP / 10.0);
    // Process CPU comes in 10 ms ticks: 200 operations of 5 ms are a second, the others' far less.
    double burnedMicros = CPU_PER_OP_NANOS / 1e3;
    assertThat(burningStats.cpuMicrosPerOp()).isGreaterThan(burnedMicros * 0.8);
    assertThat(idleStats.cpuMicrosPerOp()).isLessThan(burnedMicros * 0.3);
    assertThat(allocatingStats.cpuMicrosPerOp()).isLessThan(burnedMicros * 0.3);
  }

  @Test
  void afterIdle_pausesBeforeEachOperation_outsideItsTiming_andTakesOnlyItsSystems() {
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Runnable idle =
        () -> {
          order.add("idle");
          clock.addAndGet(Duration.ofMillis(2).toNanos()); // the pause, on the manual clock
        };
    UncontendedScenario scenario = UncontendedScenario.afterIdle(ServerCpu.NONE, clock::get, idle);
    LockSystem floorRaw =
        new StandIn(Systems.FLOOR_RAW, calls) {
          @Override
          public Held acquire(String resource, Duration maxWait) {
            order.add("op");
            return super.acquire(resource, maxWait);
          }
        };

    assertThat(scenario.id()).isEqualTo("1-idle");
    assertThat(scenario.accepts(floorRaw)).isTrue();
    assertThat(scenario.accepts(new StandIn(Systems.FENCED, calls))).isTrue();
    assertThat(scenario.accepts(new StandIn(Systems.REDISSON_REDLOCK, calls))).isFalse();

    Measurement m =
        scenario
            .runInTurns(List.of(floorRaw), new Window(Duration.ZERO, Duration.ofMillis(300)))
            .get(0);

    // Each operation takes 1 ms of the manual clock and follows 2 ms of idle: 100 in 300 ms, each
    // timed at 1 ms (within the histogram's three significant digits), not 3.
    assertThat(m.latencies().getTotalCount()).isEqualTo(100);
    assertThat((double) m.latencies().getMaxValue())
        .isCloseTo(Duration.ofMillis(1).toNanos(), within(2_000.0));
    assertThat((double) m.latencies().getMinValue())
        .isCloseTo(Duration.ofMillis(1).toNanos(), within(2_000.0));
    for (int i = 0; i < order.size(); i += 2) {
      assertThat(order.subList(i, Math.min(order.size(), i + 2))).startsWith("idle");
    }
  }

  private static final int ALLOCATED_PER_OP = 64 * 1024;
  private static final long CPU_PER_OP_NANOS = 5_000_000;

  /** Spins until this thread has used {@code nanos} of CPU, however busy the machine is. */
  private static void burnCpu(long nanos) {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long until = threads.getCurrentThreadCpuTime() + nanos;
    while (threads.getCurrentThreadCpuTime() < until) {
      Thread.onSpinWait();
    }
  }

  /**
   * Records which system ran, and takes a millisecond of the manual clock per acquire + release.
   */
  private class StandIn implements LockSystem {
    private final String name;
    private final List<String> calls;

    StandIn(String name, List<String> calls) {
      this.name = name;
      this.calls = calls;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Held acquire(String resource, Duration maxWait) {
      calls.add(name);
      clock.addAndGet(Duration.ofMillis(1).toNanos()); // the operation's own duration
      return () -> {};
    }

    @Override
    public boolean canWait() {
      return false;
    }

    @Override
    public void close() {}
  }
}
