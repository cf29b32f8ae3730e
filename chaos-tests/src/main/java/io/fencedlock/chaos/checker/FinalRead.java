package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import java.util.Optional;

/** Finds the final read of the registers in a history. Pure; thread-safe. */
final class FinalRead {
  private FinalRead() {}

  /** The completion of the last successful READ, if any. */
  static Optional<Op> of(History history) {
    return history.pairs(Fn.READ).stream()
        .filter(OpPair::isOk)
        .reduce((a, b) -> b)
        .map(OpPair::completion);
  }
}
