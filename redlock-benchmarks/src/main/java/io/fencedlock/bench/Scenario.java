package io.fencedlock.bench;

/** One workload, run against one system at a time. Implementations are stateless. */
interface Scenario {

  /** A stable id, used as the key in results.json: "1", "1-many", "1-idle", "2", "3", "4". */
  String id();

  /** One line saying what is measured, for tables and the plot. */
  String title();

  /** Whether the system takes part (the floors cannot wait for a held lock). */
  default boolean accepts(LockSystem system) {
    return system.takesPart(id());
  }

  /** Warms up, measures, and leaves no lock held. */
  Measurement run(LockSystem system, Window window);
}
