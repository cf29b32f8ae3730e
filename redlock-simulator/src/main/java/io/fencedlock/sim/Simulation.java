package io.fencedlock.sim;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.RedlockMetrics;
import io.fencedlock.redlock.spi.Regression;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Runs one {@link Plan}: the real algorithm in each client, against simulated nodes, network and
 * time, on one thread. The phases: the plan's operations and faults until the horizon; healing; a
 * quiet period past every TTL and maxLeaseTtl (then no lock key may remain); one acquire per
 * resource by a fresh client, which must succeed; every client closes; the loop drains (then no
 * call may be pending, and no key may have been leaked). Invariants are checked after every step.
 *
 * <p>Durations are small, in simulated time, and matter only relative to each other: a 5 ms node
 * timeout, 0.3 ms mean network delay, TTLs of 10 to 100 ms, maxLeaseTtl 100 ms, so that expiries,
 * retries and re-admissions all happen within a schedule.
 */
public final class Simulation {
  static final int FIRST_PORT = 7000;
  static final Duration NODE_TIMEOUT = Duration.ofMillis(5);
  static final Duration CONNECT_TIMEOUT = Duration.ofMillis(20);
  static final Duration RETRY_DELAY = Duration.ofMillis(10);
  static final Duration RETRY_JITTER = Duration.ofMillis(10);
  static final Duration MAX_LEASE_TTL = Duration.ofMillis(100);
  static final long MEAN_DELAY_NANOS = 300_000;
  static final int MIN_TTL_MILLIS = 10;
  static final int MAX_WAIT_MILLIS = 200;

  /**
   * The drift allowance's constant part: a clock stepping forward by more has broken the
   * assumption.
   */
  static final long DRIFT_FLOOR_NANOS = 2_000_000;

  private static final Duration FINAL_TTL = Duration.ofMillis(50);
  private static final Duration FINAL_WAIT = Duration.ofMillis(200);
  private static final long DRAIN_CAP_NANOS = 60_000_000_000L;

  private final Plan plan;
  private final EventLoop loop;
  private final Trace trace;
  private final Stats stats = new Stats();
  private final Violations violations;
  private final World world;
  private final LeaseBook leases;
  private final CallBook calls;
  private final Workload workload;
  private final Nemesis nemesis;
  private final List<SimClient> clients = new ArrayList<>();
  private final RedlockConfig config;
  private final Set<Regression> regressions = EnumSet.noneOf(Regression.class);

  /** False for the run a schedule with throwing metrics sinks is compared with. */
  private final boolean sinksThrow;

  private Simulation(Plan plan, boolean recordTrace, boolean sinksThrow) {
    this.plan = plan;
    this.sinksThrow = sinksThrow;
    this.loop = new EventLoop(plan.clients() + 1);
    this.trace = new Trace(recordTrace);
    this.violations = new Violations(loop, trace);
    KeyAudit audit = new KeyAudit(plan.nodes(), violations, stats, trace, loop);
    SimNode[] nodes = new SimNode[plan.nodes()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] =
          new SimNode(i, loop, plan.clients() + 1, plan.bugs(), plan.fencing(), audit.observer(i));
    }
    Network network =
        new Network(
            loop,
            nodes,
            plan.clients() + 1,
            stats,
            new SplittableRandom(Seeds.of(plan.seed(), "network", 0)),
            plan.net());
    this.world =
        new World(
            loop,
            nodes,
            network,
            trace,
            stats,
            audit,
            NODE_TIMEOUT.toNanos(),
            CONNECT_TIMEOUT.toNanos());
    String[] lockKeys = new String[plan.resources()];
    for (int r = 0; r < lockKeys.length; r++) {
      lockKeys[r] = resource(r);
    }
    this.config = config(plan, loop);
    this.leases = new LeaseBook(loop, nodes, lockKeys, config.quorum(), violations, stats);
    audit.watchHeldLeases(leases::heldAndNotReleased);
    this.calls = new CallBook(loop, plan.clients() + 1, violations, stats);
    TokenLedger tokens = new TokenLedger(plan.resources(), violations, stats);
    long callBound = 2 * CONNECT_TIMEOUT.toNanos() + 8 * NODE_TIMEOUT.toNanos() + 1_000_000_000L;
    this.workload = new Workload(world, clients, leases, tokens, calls, callBound);
    this.nemesis = new Nemesis(world, workload, leases, calls, plan, DRIFT_FLOOR_NANOS);
    for (Bug bug : plan.bugs()) {
      if (bug.regression() != null) {
        regressions.add(bug.regression());
      }
    }
  }

  /**
   * Runs {@code plan}; with {@code recordTrace}, the outcome carries the readable trace. A plan in
   * which a client's metrics sink throws runs twice, the second time with sinks that do not: the
   * two must do the same, event for event (the same trace hash).
   */
  public static Outcome run(Plan plan, boolean recordTrace) {
    boolean throwing = plan.faults().stream().anyMatch(f -> f instanceof Fault.ThrowingMetrics);
    Long silentRun = throwing ? new Simulation(plan, false, false).run(null).traceHash() : null;
    return new Simulation(plan, recordTrace, true).run(silentRun);
  }

  /** Resource names, made once: the core hashes them into its maps on every call. */
  private static final String[] RESOURCES = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"};

  static String resource(int index) {
    return index < RESOURCES.length ? RESOURCES[index] : "r" + index;
  }

  static RedlockConfig config(Plan plan, EventLoop loop) {
    return config(plan, loop, RedlockMetrics.NONE);
  }

  private static RedlockConfig config(Plan plan, EventLoop loop, RedlockMetrics metrics) {
    List<String> uris = new ArrayList<>();
    for (int i = 0; i < plan.nodes(); i++) {
      uris.add("redis://127.0.0.1:" + (FIRST_PORT + i));
    }
    return RedlockConfig.builder()
        .nodes(uris)
        .nodeTimeout(NODE_TIMEOUT)
        .connectTimeout(CONNECT_TIMEOUT)
        .retryDelay(RETRY_DELAY)
        .retryJitter(RETRY_JITTER)
        .maxLeaseTtl(MAX_LEASE_TTL)
        .fencing(plan.fencing())
        .tokenPrediction(plan.tokenPrediction())
        .maxLocalHandoffs(plan.maxLocalHandoffs())
        .ticker(loop::now)
        .metrics(metrics)
        .build();
  }

  /**
   * @param silentRun the trace hash of this plan's run with sinks that do not throw, to compare
   *     with; null if no sink throws
   */
  private Outcome run(@Nullable Long silentRun) {
    try {
      for (int c = 0; c < plan.clients(); c++) {
        int client = c;
        SimMetrics sink =
            plan.faults().stream()
                    .anyMatch(f -> f instanceof Fault.ThrowingMetrics t && t.client() == client)
                ? new SimMetrics(sinksThrow)
                : null;
        RedlockConfig own = sink == null ? config : config(plan, loop, sink);
        clients.add(SimClient.create(c, world, own, plan.seed(), regressions, sink));
      }
      workload.schedule(plan.ops());
      nemesis.schedule(plan.faults());
      runUntil(plan.horizonNanos());
      nemesis.heal(NetProfile.healed(MEAN_DELAY_NANOS));
      workload.heal();
      long quietUntil =
          plan.horizonNanos()
              + MAX_WAIT_MILLIS * 1_000_000L
              + 2 * MAX_LEASE_TTL.toNanos()
              + 50_000_000L
              - nemesis.mostNegativeOffset();
      runUntil(quietUntil);
      checkNoKeyLeft();
      finalPhase();
    } catch (RuntimeException | StackOverflowError bug) {
      violations.add(Violation.Kind.BUG, bug + " at " + firstFrames(bug));
    }
    if (silentRun != null && silentRun != trace.hash()) {
      violations.add(
          Violation.Kind.CALLBACK_CHANGED_OUTCOME,
          "the schedule did not do what it does with metrics sinks that do not throw: the"
              + " exceptions of a sink changed what its client did after it started throwing");
    }
    stats.schedules = 1;
    stats.steps = loop.steps();
    stats.simulatedNanos = loop.now();
    Assumptions assumptions =
        new Assumptions(leases.pausedPastValidity(), nemesis.clockSteppedBeyondDrift());
    return new Outcome(plan, violations.list(), assumptions, stats, trace.hash(), trace.lines());
  }

  private void finalPhase() {
    SimClient fresh =
        SimClient.create(plan.clients(), world, config, plan.seed(), regressions, null);
    clients.add(fresh);
    List<CompletableFuture<Lease>> finals =
        workload.finalAcquires(fresh, plan.resources(), FINAL_TTL, FINAL_WAIT);
    runUntil(loop.now() + FINAL_WAIT.toNanos() + 10 * NODE_TIMEOUT.toNanos());
    for (int r = 0; r < finals.size(); r++) {
      CompletableFuture<Lease> f = finals.get(r);
      if (!f.isDone() || f.isCompletedExceptionally()) {
        violations.add(
            Violation.Kind.FINAL_ACQUIRE_FAILED,
            "after healing, acquire("
                + resource(r)
                + ") "
                + (f.isDone() ? "failed: " + failure(f) : "had not completed"));
      }
    }
    for (SimClient client : clients) {
      loop.at(loop.now(), client.index, () -> workload.close(client.index));
    }
    long cap = loop.now() + DRAIN_CAP_NANOS;
    while (loop.step(cap)) {
      leases.check();
    }
    if (loop.nextTime() != Long.MAX_VALUE) {
      violations.add(
          Violation.Kind.PENDING_AT_END,
          "events were still scheduled 60 s after every client closed");
    }
    calls.checkNonePending();
    world.audit.checkOrphans();
  }

  /** After the quiet period every TTL has passed: no lock key may remain on any node. */
  private void checkNoKeyLeft() {
    for (SimNode node : world.nodes) {
      for (int r = 0; r < plan.resources(); r++) {
        stats.checks++;
        NodeStore.Entry e = node.store().peek(resource(r));
        if (e != null && e.expiresAtMillis() >= node.nowMillis()) {
          violations.add(
              Violation.Kind.STALE_KEY,
              "n"
                  + node.index()
                  + " still holds "
                  + resource(r)
                  + " for "
                  + Trace.id(e.value())
                  + " (PTTL "
                  + (e.expiresAtMillis() - node.nowMillis())
                  + " ms) after healing and "
                  + "a quiet period past every TTL");
        }
      }
    }
  }

  private void runUntil(long time) {
    while (loop.step(time)) {
      leases.check();
    }
    loop.advanceTo(time);
  }

  private static String failure(CompletableFuture<?> f) {
    try {
      f.join();
      return "none";
    } catch (RuntimeException e) {
      return String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
    }
  }

  private static String firstFrames(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(6, frames.length); i++) {
      s.append(i == 0 ? "" : " < ").append(frames[i]);
    }
    return s.toString();
  }
}
