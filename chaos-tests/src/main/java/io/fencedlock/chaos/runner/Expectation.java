package io.fencedlock.chaos.runner;

import java.util.List;

/** What an experiment asserts about its measured run. Implementations are pure and thread-safe. */
@FunctionalInterface
public interface Expectation {

  /** The unmet parts of the expectation, as human-readable sentences; empty means PASS. */
  List<String> unmet(RunMetrics metrics);
}
