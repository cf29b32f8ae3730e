package io.fencedlock.redlock.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** A node's answer to {@link NodeDriver#lockAll}. */
public sealed interface MultiLockReply {

  /**
   * Every lock key is now the owner's on this node.
   *
   * @param counters per resource, in request order, the fence counter read (or the marker's epoch
   *     when it does not exist yet)
   */
  record Granted(List<Long> counters) implements MultiLockReply {
    public Granted {
      counters = List.copyOf(counters);
    }
  }

  /**
   * One lock key is held by another owner; nothing was written.
   *
   * @param index the position (from 0) of the first resource found held
   * @param holder its owner id
   * @param pttlMillis how much longer its key lives
   */
  record Refused(int index, @Nullable String holder, long pttlMillis) implements MultiLockReply {}

  /** The node has no marker; nothing was written. */
  record Uninitialized() implements MultiLockReply {}
}
