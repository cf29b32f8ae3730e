package io.fencedlock.redlock.spi;

import org.jspecify.annotations.Nullable;

/**
 * The lock step of an acquire on one node. A driver runs, atomically on the node:
 *
 * <ul>
 *   <li>fenced ({@code fenceKey} not null): acquire.lua, which refuses on a node without its
 *       marker, takes the lock (SET NX PX) and reads the fence counter (or the marker's epoch when
 *       the counter does not exist), and writes {@code predictedToken} to the counter and the
 *       node's high-water mark when it is above the counter;
 *   <li>unfenced, with {@code predecessorOwner}: handoff.lua, which touches only the lock key;
 *   <li>unfenced, without: a plain {@code SET lockKey owner NX PX ttl}.
 * </ul>
 *
 * In every form, {@code predecessorOwner}'s key is deleted first if it holds the lock (a
 * compare-and-delete, as a release would), and a request that finds the lock already holding its
 * own owner id is granted again (it was delivered twice).
 *
 * @param lockKey the lock key
 * @param fenceKey the resource's fence counter, or null for an unfenced request
 * @param owner the new owner id
 * @param ttlMillis the key's time to live
 * @param predictedToken the token to write if above the counter (fenced only), or 0 for none
 * @param predecessorOwner the owner id of a lease released in favour of this request, or null
 * @param waiter the id of the waiting client this request is an attempt of, or null: fenced, on a
 *     refusal the node puts it in the lock's waiter queue ({@link NodeKeys#waiters}) until {@code
 *     waitMillis} from now, and on a grant takes it out; unfenced requests ignore it
 * @param waitMillis with {@code waiter}, for how many milliseconds the node keeps it queued
 */
public record LockRequest(
    String lockKey,
    @Nullable String fenceKey,
    String owner,
    long ttlMillis,
    long predictedToken,
    @Nullable String predecessorOwner,
    @Nullable String waiter,
    long waitMillis) {

  /** A request that does not join a waiter queue. */
  public LockRequest(
      String lockKey,
      @Nullable String fenceKey,
      String owner,
      long ttlMillis,
      long predictedToken,
      @Nullable String predecessorOwner) {
    this(lockKey, fenceKey, owner, ttlMillis, predictedToken, predecessorOwner, null, 0);
  }

  /** Whether the request reads and may write the fence counter. */
  public boolean isFenced() {
    return fenceKey != null;
  }
}
