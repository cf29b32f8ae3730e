package io.fencedlock.bench;

import java.util.List;

/**
 * A scenario whose systems can share one measuring window by taking short turns, because each
 * system's client works alone on a resource of its own. Compared in turns, slow drifts of a shared
 * machine land on every system alike instead of on whichever ran during them.
 */
interface TurnTakingScenario extends Scenario {

  /**
   * Warms every system up, then measures them in turns until each has been measured for the
   * window's measuring time.
   *
   * @return one measurement per system, in the order given
   */
  List<Measurement> runInTurns(List<LockSystem> systems, Window window);
}
