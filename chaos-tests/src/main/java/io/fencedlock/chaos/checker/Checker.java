package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.History;

/**
 * Decides whether a history satisfies one property (Jepsen's checker). Implementations are pure
 * functions of the history and thread-safe; they never throw: an input they cannot judge gives
 * {@link Verdict#UNKNOWN} (and {@link Checkers#compose} turns an unexpected exception into one).
 */
public interface Checker {

  /** A short, stable name used in results files. */
  String name();

  /** Checks the history. */
  CheckResult check(History history);
}
