package io.fencedlock.chaos.runner;

/**
 * Maps history time (nanoseconds) to x pixels. Immutable.
 *
 * @param left x of time 0
 * @param right x of {@code end}
 * @param end the last time shown
 */
record Scale(double left, double right, long end) {

  double at(long nanos) {
    return left + (right - left) * Math.max(0, Math.min(nanos, end)) / end;
  }

  /** Draws a time axis with a tick every second (or every 5 s for long runs). */
  void axis(Svg svg, double y) {
    svg.line(left, y, right, y, "stroke:#333");
    long step = end > 40_000_000_000L ? 5_000_000_000L : 1_000_000_000L;
    for (long t = 0; t <= end; t += step) {
      double x = at(t);
      svg.line(x, y, x, y + 5, "stroke:#333");
      svg.text(x - 6, y + 17, (t / 1_000_000_000L) + " s", "fill:#333");
    }
  }
}
