package io.fencedlock.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Records the events of one demo run with times relative to the run's start, read from a monotonic
 * clock ({@code System.nanoTime} by default) so wall-clock steps cannot reorder them.
 *
 * <p>Thread-safe: events may be added from several threads; {@link #events()} is a snapshot.
 */
final class Timeline {
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final List<TimelineEvent> events = new ArrayList<>(); // guarded by this

  Timeline(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
  }

  /** A timeline starting now on {@link System#nanoTime()}. */
  static Timeline startNow() {
    return new Timeline(System::nanoTime);
  }

  /** Milliseconds since this timeline started. */
  long nowMillis() {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - startNanos);
  }

  /** Appends an event; events are kept in the order they were added. */
  synchronized void add(TimelineEvent event) {
    events.add(event);
  }

  /** An immutable snapshot of the events so far. */
  synchronized List<TimelineEvent> events() {
    return List.copyOf(events);
  }
}
