package io.fencedlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One client acquiring and releasing a resource nobody else uses, back to back (closed loop:
 * the next operation starts when the last ends, so there is no schedule to fall behind and
 * no coordinated omission to correct). Scenarios 1 and 4; they differ only in the links.
 *
 * <p>The systems are measured in turns of {@link #TURN}: a system's own stragglers (replies
 * still arriving after an operation returned) land on its own next operation, as they do
 * for a real client, except for the last operation of a turn; and the machine's slower
 * changes of speed, which made two identical systems measured one after the other differ by
 * up to 10 % at p50, land on all of them alike.
 */
final class UncontendedScenario implements TurnTakingScenario {
  /** Long enough that a turn's first operation is a small part of it (hundreds on loopback). */
  static final Duration TURN = Duration.ofMillis(100);

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
    return runInTurns(List.of(system), window).get(0);
  }

  @Override
  public List<Measurement> runInTurns(List<LockSystem> systems, Window window) {
    int n = systems.size();
    List<String> resources = systems.stream().map(system -> "bench:s" + id + ":" + system.name()).toList();
    for (int i = 0; i < n; i++) {
      loop(systems.get(i), resources.get(i), window.warmup(), Measurement.newHistogram(), new ErrorTally());
    }
    Histogram[] histograms = new Histogram[n];
    ErrorTally[] errors = new ErrorTally[n];
    long[] measured = new long[n];
    for (int i = 0; i < n; i++) {
      histograms[i] = Measurement.newHistogram();
      errors[i] = new ErrorTally();
    }
    long wanted = window.measure().toNanos();
    for (boolean more = true; more; ) {
      more = false;
      for (int i = 0; i < n; i++) {
        if (measured[i] < wanted) {
          long start = System.nanoTime();
          loop(systems.get(i), resources.get(i), Duration.ofNanos(Math.min(TURN.toNanos(), wanted - measured[i])),
              histograms[i], errors[i]);
          measured[i] += System.nanoTime() - start;
          more |= measured[i] < wanted;
        }
      }
    }
    List<Measurement> measurements = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      measurements.add(new Measurement(histograms[i], measured[i], errors[i].count(), 0, errors[i].first()));
    }
    return measurements;
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
