package io.fencedlock.bench;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * Scenario 3: 8 clients contend for one resource; each holder keeps it for {@link #HOLD} (so that
 * every other client is waiting when it lets go), releases, and then sits out until another client
 * got the lock. Measured: handoff latency, from the moment the holder starts releasing to the
 * moment the next holder's acquire returns. Throughput is handoffs per second. Closed loop, so no
 * coordinated-omission correction applies.
 */
final class HandoffScenario implements Scenario {
  static final int CLIENTS = 8;
  private static final Duration MAX_WAIT = Duration.ofSeconds(5);
  private static final long SIT_OUT_MILLIS = 1_000;

  /** Work done under the lock; without it the client that sat out would usually just walk in. */
  static final Duration HOLD = Duration.ofMillis(2);

  private final ServerCpu servers;

  /** With the Redis servers whose CPU time is measured beside the client's ({@link CostMeter}). */
  HandoffScenario(ServerCpu servers) {
    this.servers = servers;
  }

  @Override
  public String id() {
    return "3";
  }

  @Override
  public String title() {
    return CLIENTS
        + " clients contending for one resource: handoff, release -> next holder granted";
  }

  @Override
  public boolean accepts(LockSystem system) {
    return system.canWait() && system.takesPart(id());
  }

  @Override
  public Measurement run(LockSystem system, Window window) {
    HandoffBoard board = new HandoffBoard();
    ErrorTally errors = new ErrorTally();
    String resource = "bench:s3:" + system.name();
    Workers workers =
        Workers.start(
            "s3-" + system.name(),
            CLIENTS,
            client -> {
              LockSystem.Held held;
              try {
                held = system.acquire(resource, MAX_WAIT);
              } catch (NotGrantedException e) {
                errors.record(e); // a client that waited MAX_WAIT in vain: reported
                return;
              }
              board.granted(client);
              Workers.pause(HOLD); // simulated work under the lock
              long grants = board.releasing();
              held.release();
              board.awaitNextHolder(grants, SIT_OUT_MILLIS);
            });
    CostMeter meter = CostMeter.create(servers);
    Workers.pause(window.warmup());
    board.handoffs().getIntervalHistogram();
    long errorsBefore = errors.count();
    long overlapsBefore = board.overlaps();
    CostMeter.Snapshot costBefore = meter.start();
    long start = System.nanoTime();
    Workers.pause(window.measure());
    Histogram measured = board.handoffs().getIntervalHistogram();
    long elapsed = System.nanoTime() - start;
    ClientCost cost =
        meter.since(costBefore); // per handoff; this system's clients are the only ones running
    long errorCount = errors.count() - errorsBefore;
    long overlapCount = board.overlaps() - overlapsBefore;
    workers.stopAndJoin();
    return new Measurement(measured, elapsed, errorCount, overlapCount, errors.first(), cost);
  }
}
