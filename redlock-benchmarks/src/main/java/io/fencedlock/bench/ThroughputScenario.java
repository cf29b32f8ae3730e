package io.fencedlock.bench;

import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Scenario 2: 32 clients, each acquiring and releasing its own resource as fast as it can (closed
 * loop). Throughput is the number of completed acquire + release pairs per second in the window;
 * the latencies come from a {@link Recorder}, whose interval snapshots cut the window out without
 * stalling the clients.
 */
final class ThroughputScenario implements Scenario {
  static final int CLIENTS = 32;

  private final ServerCpu servers;

  /** With the Redis servers whose CPU time is measured beside the client's ({@link CostMeter}). */
  ThroughputScenario(ServerCpu servers) {
    this.servers = servers;
  }

  @Override
  public String id() {
    return "2";
  }

  @Override
  public String title() {
    return CLIENTS + " concurrent clients on distinct resources: acquire + release";
  }

  @Override
  public Measurement run(LockSystem system, Window window) {
    Recorder recorder = new Recorder(60_000_000_000L, 3);
    ErrorTally errors = new ErrorTally();
    Workers workers =
        Workers.start(
            "s2-" + system.name(),
            CLIENTS,
            client -> {
              long start = System.nanoTime();
              try {
                system.acquire("bench:s2:" + client, Duration.ZERO).release();
                recorder.recordValue(System.nanoTime() - start);
              } catch (NotGrantedException e) {
                errors.record(e); // counted, and reported with the run
              }
            });
    CostMeter meter = CostMeter.create(servers);
    Workers.pause(window.warmup());
    recorder.getIntervalHistogram(); // drop the warm-up
    long errorsBefore = errors.count();
    CostMeter.Snapshot costBefore = meter.start();
    long start = System.nanoTime();
    Workers.pause(window.measure());
    Histogram measured = recorder.getIntervalHistogram();
    long elapsed = System.nanoTime() - start;
    ClientCost cost = meter.since(costBefore); // this system's clients are the only ones running
    long errorCount = errors.count() - errorsBefore;
    workers.stopAndJoin();
    return new Measurement(measured, elapsed, errorCount, 0, errors.first(), cost);
  }
}
