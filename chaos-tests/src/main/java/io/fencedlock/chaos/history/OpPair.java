package io.fencedlock.chaos.history;

import java.util.Optional;

/**
 * An invocation and its completion, if it has one. A missing completion means the history ended
 * while the operation was in flight: treat it like INFO. Immutable.
 *
 * @param invoke the invocation
 * @param completion the completion, or null
 */
public record OpPair(Op invoke, Op completion) {

  /** The completion's type, INFO when there is none. */
  public OpType outcome() {
    return completion == null ? OpType.INFO : completion.type();
  }

  /** The completion, if any. */
  public Optional<Op> completed() {
    return Optional.ofNullable(completion);
  }

  /** Completion time, or {@link Long#MAX_VALUE} if it never completed. */
  public long endNanos() {
    return completion == null ? Long.MAX_VALUE : completion.timeNanos();
  }

  /** The operation's process. */
  public int process() {
    return invoke.process();
  }

  /** Whether it completed OK. */
  public boolean isOk() {
    return outcome() == OpType.OK;
  }
}
