package io.fencedlock.redlock.spi;

import org.jspecify.annotations.Nullable;

/** A node's answer to a {@link LockRequest}. */
public sealed interface LockReply {

  /**
   * The lock is ours on this node.
   *
   * @param counter the fence counter read (or the token written); 0 when unfenced
   * @param wroteToken whether the predicted token was written
   */
  record Granted(long counter, boolean wroteToken) implements LockReply {}

  /**
   * Another owner holds the lock on this node; nothing was written.
   *
   * @param pttlMillis how much longer the holder's key lives, or -1 if unknown
   * @param counter the fence counter read (fenced only, else 0)
   * @param holder the holder's owner id, or null if the node does not tell (plain SET NX)
   */
  record Refused(long pttlMillis, long counter, @Nullable String holder) implements LockReply {}

  /** The node has no marker: it lost its memory and must not take part; nothing was locked. */
  record Uninitialized() implements LockReply {}
}
