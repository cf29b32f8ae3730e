package io.fencedlock.bench;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * One client acquiring and releasing a resource nobody else uses, back to back (closed loop:
 * the next operation starts when the last ends, so there is no schedule to fall behind and
 * no coordinated omission to correct). Scenarios 1 and 4; they differ only in the links.
 */
final class UncontendedScenario implements Scenario {
  private final String id;
  private final String title;

  UncontendedScenario(String id, String title) {
    this.id = id;
    this.title = title;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public Measurement run(LockSystem system, Window window) {
    String resource = "bench:s" + id + ":" + system.name();
    loop(system, resource, window.warmup(), Measurement.newHistogram(), new ErrorTally());
    Histogram histogram = Measurement.newHistogram();
    ErrorTally errors = new ErrorTally();
    long start = System.nanoTime();
    loop(system, resource, window.measure(), histogram, errors);
    return new Measurement(histogram, System.nanoTime() - start, errors.count(), 0, errors.first());
  }

  private static void loop(LockSystem system, String resource, Duration length, Histogram into, ErrorTally errors) {
    long end = System.nanoTime() + length.toNanos();
    long now;
    while ((now = System.nanoTime()) < end) {
      try {
        system.acquire(resource, Duration.ZERO).release();
        into.recordValue(System.nanoTime() - now);
      } catch (NotGrantedException e) {
        errors.record(e); // reported as the run's error count
      }
    }
  }
}
