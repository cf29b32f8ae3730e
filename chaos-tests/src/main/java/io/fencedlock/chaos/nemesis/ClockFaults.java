package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.fixture.FakeTime;
import io.fencedlock.testkit.Deployment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Real clock faults on the nodes: each node runs under libfaketime ({@link FakeTime}) and a step
 * moves its wall clock by rewriting its offset while it runs; a strobe flips it back and forth
 * while the fault lasts. After every change the node's {@code TIME} is read back and compared with
 * this machine's clock plus the offset: a node whose clock did not move fails the fault (and so the
 * run). The final heal sets every offset back to 0. Thread-safe.
 */
public final class ClockFaults implements FaultApplier {
  /** How far a node's TIME may be from the expected reading (a loaded machine, a slow reply). */
  static final long TOLERANCE_MILLIS = 400;

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

  private final Deployment nodes;
  private final IntFunction<FakeTime> clocks;
  private final ScheduledExecutorService strober =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clock-strobe");
            t.setDaemon(true);
            return t;
          });
  private final Map<Integer, Strobe> strobes = new HashMap<>(); // by fault id

  /** A strobe under way and the offsets it returns its nodes to. */
  private record Strobe(ScheduledFuture<?> flips, Map<Integer, Long> base) {}

  /**
   * @param clocks each node's clock
   */
  public ClockFaults(Deployment nodes, IntFunction<FakeTime> clocks) {
    this.nodes = nodes;
    this.clocks = clocks;
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClockStep || fault instanceof Fault.ClockStrobe;
  }

  @Override
  public String apply(int id, Fault fault) {
    if (fault instanceof Fault.ClockStep step) {
      List<String> read = new ArrayList<>();
      for (int n : step.nodes()) {
        FakeTime clock = clocks.apply(n);
        clock.set(clock.offsetMillis() + step.stepMillis());
        read.add("n" + n + " " + verify(n, clock.offsetMillis()) + " ms");
      }
      return "node clocks read back: " + String.join(", ", read);
    }
    Fault.ClockStrobe s = (Fault.ClockStrobe) fault;
    Map<Integer, Long> base = new HashMap<>();
    for (int n : s.nodes()) {
      base.put(n, clocks.apply(n).offsetMillis());
    }
    boolean[] shifted = {false};
    synchronized (strobes) {
      strobes.put(
          id,
          new Strobe(
              strober.scheduleAtFixedRate(
                  () -> {
                    shifted[0] = !shifted[0];
                    base.forEach(
                        (n, b) -> clocks.apply(n).set(shifted[0] ? b + s.deltaMillis() : b));
                  },
                  0,
                  s.periodMillis(),
                  TimeUnit.MILLISECONDS),
              base));
    }
    return "strobing from offsets " + base;
  }

  /** Reads the node's clock offset (its TIME minus this machine's clock), failing if it is off. */
  private long verify(int node, long expectedMillis) {
    long before = System.currentTimeMillis();
    Object reply = nodes.node(node).command(COMMAND_TIMEOUT, "TIME");
    long after = System.currentTimeMillis();
    if (!(reply instanceof List<?> time) || time.size() != 2) {
      throw new IllegalStateException("node " + node + " answered TIME with " + reply);
    }
    long nodeMillis =
        Long.parseLong(time.get(0).toString()) * 1000
            + Long.parseLong(time.get(1).toString()) / 1000;
    long offset = nodeMillis - (before + after) / 2;
    if (Math.abs(offset - expectedMillis) > TOLERANCE_MILLIS + (after - before)) {
      throw new IllegalStateException(
          "node "
              + node
              + "'s clock is off by "
              + offset
              + " ms, expected "
              + expectedMillis
              + " ms: libfaketime does not act on it");
    }
    return offset;
  }

  @Override
  public void heal(int id, Fault fault) {
    if (fault instanceof Fault.ClockStrobe) {
      Strobe strobe;
      synchronized (strobes) {
        strobe = strobes.remove(id);
      }
      if (strobe != null) {
        strobe.flips().cancel(false);
        awaitQuietly(strobe.flips());
        strobe.base().forEach((n, b) -> clocks.apply(n).set(b));
      }
    }
    // A step is instantaneous: the clock stays where it went until the final heal.
  }

  private static void awaitQuietly(ScheduledFuture<?> strobe) {
    try {
      strobe.get(1, TimeUnit.SECONDS);
    } catch (Exception e) {
      // cancelled (the expected outcome) or still finishing its last flip: either is fine
    }
  }

  /** Stops every strobe and sets every node's clock back to real time, checking each. */
  @Override
  public void healAll() {
    List<ScheduledFuture<?>> all;
    synchronized (strobes) {
      all = strobes.values().stream().<ScheduledFuture<?>>map(Strobe::flips).toList();
      strobes.clear();
    }
    all.forEach(f -> f.cancel(false));
    all.forEach(ClockFaults::awaitQuietly);
    for (int n = 0; n < nodes.size(); n++) {
      clocks.apply(n).set(0);
      if (nodes.node(n).isRunning() && !nodes.node(n).isPaused()) {
        verify(n, 0);
      }
    }
  }

  /** Stops the strobe thread. */
  public void close() {
    strober.shutdownNow();
  }
}
