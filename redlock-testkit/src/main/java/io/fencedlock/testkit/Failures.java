package io.fencedlock.testkit;

/** Accumulates cleanup failures: the first one is thrown, the rest ride along as suppressed. */
final class Failures {
  private Failures() {}

  static RuntimeException add(RuntimeException first, RuntimeException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
