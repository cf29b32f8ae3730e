package io.fencedlock.bench;

import java.time.Duration;

/**
 * How long and how often each system runs in each scenario.
 *
 * @param reps repetitions; each reported figure is the median over them
 * @param first the window of a system's first repetition in a scenario (longer warm-up)
 * @param later the window of every later repetition
 */
record BenchPlan(int reps, Window first, Window later) {

  /**
   * About 15 minutes of warm-up and measuring in all: 19.5 s per system and scenario, for 46 of
   * them (897 s; building and starting come on top).
   */
  static BenchPlan full() {
    return new BenchPlan(
        5,
        new Window(Duration.ofSeconds(3), Duration.ofMillis(2500)),
        new Window(Duration.ofSeconds(1), Duration.ofMillis(2500)));
  }

  /** About a minute and a half: for checking the harness, not for conclusions. */
  static BenchPlan quick() {
    return new BenchPlan(
        3,
        new Window(Duration.ofMillis(500), Duration.ofMillis(400)),
        new Window(Duration.ofMillis(200), Duration.ofMillis(400)));
  }

  /** A few hundred milliseconds per scenario, for the smoke test: figures mean nothing. */
  static BenchPlan smoke() {
    Window tiny = new Window(Duration.ofMillis(100), Duration.ofMillis(200));
    return new BenchPlan(1, tiny, tiny);
  }

  Window window(int rep) {
    return rep == 0 ? first : later;
  }
}
