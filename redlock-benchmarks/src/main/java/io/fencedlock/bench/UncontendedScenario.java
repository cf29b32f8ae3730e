package io.fencedlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
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
  private final LongSupplier clock;

  UncontendedScenario(String id, String title) {
    this(id, title, System::nanoTime);
  }

  /** With {@code clock} (nanoseconds) timing turns and operations, for tests with a manual clock. */
  UncontendedScenario(String id, String title, LongSupplier clock) {
    this.id = id;
    this.title = title;
    this.clock = clock;
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
    List<Entrant> entrants = systems.stream().map(Entrant::new).toList();
    entrants.forEach(entrant -> loop(entrant.system, entrant.resource, window.warmup(),
        Measurement.newHistogram(), new ErrorTally()));
    long wanted = window.measure().toNanos();
    List<Entrant> unfinished;
    for (int round = 0; !(unfinished = entrants.stream().filter(e -> e.measuredNanos < wanted).toList()).isEmpty(); round++) {
      // Each round starts one system later, so no system always follows the same one (and
      // inherits the same predecessor's stragglers and cache state).
      for (int k = 0; k < unfinished.size(); k++) {
        Entrant entrant = unfinished.get((k + round) % unfinished.size());
        entrant.takeTurn(Duration.ofNanos(Math.min(TURN.toNanos(), wanted - entrant.measuredNanos)));
      }
    }
    return entrants.stream().map(Entrant::measurement).toList();
  }

  /** One system's share of a run in turns: what its turns have recorded so far. */
  private final class Entrant {
    final LockSystem system;
    final String resource;
    final Histogram latencies = Measurement.newHistogram();
    final ErrorTally errors = new ErrorTally();
    long measuredNanos;

    Entrant(LockSystem system) {
      this.system = system;
      this.resource = "bench:s" + id + ":" + system.name();
    }

    void takeTurn(Duration length) {
      long start = clock.getAsLong();
      loop(system, resource, length, latencies, errors);
      measuredNanos += clock.getAsLong() - start;
    }

    Measurement measurement() {
      return new Measurement(latencies, measuredNanos, errors.count(), 0, errors.first());
    }
  }

  private void loop(LockSystem system, String resource, Duration length, Histogram into, ErrorTally errors) {
    long end = clock.getAsLong() + length.toNanos();
    long now;
    while ((now = clock.getAsLong()) < end) {
      try {
        system.acquire(resource, Duration.ZERO).release();
        into.recordValue(clock.getAsLong() - now);
      } catch (NotGrantedException e) {
        errors.record(e); // reported as the run's error count
      }
    }
  }
}
