package io.fencedlock.cli.demo;

import java.util.Locale;

/**
 * Renders demo runs as plain-text timelines for the terminal: one line per event with its time
 * relative to the run's start, the actor and what happened, then the run's verdict.
 *
 * <p>Stateless and thread-safe.
 */
final class ConsoleReport {
  private ConsoleReport() {}

  /** The heading, timeline and verdict of one run, each line ending in a newline. */
  static String render(RunResult run) {
    StringBuilder text = new StringBuilder();
    text.append("== ")
        .append(run.mode().label())
        .append(": ")
        .append(run.mode().title())
        .append(" ==\n");
    for (TimelineEvent event : run.events()) {
      text.append(line(event)).append('\n');
    }
    text.append("  => ").append(run.verdict()).append('\n');
    return text.toString();
  }

  /** One event as {@code " 1234 ms client 1 acquires ..."}. */
  static String line(TimelineEvent event) {
    return String.format(
        Locale.ROOT, "%7d ms  %-8s  %s", event.atMillis(), event.actor(), event.describe());
  }
}
