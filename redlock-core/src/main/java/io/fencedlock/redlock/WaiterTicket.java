package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.LockRequest;

/**
 * A waiting client, as its acquires' attempts name it to the lock's waiter queue on the lead node
 * ({@link LockRequest#waiter}): refused there, an attempt queues the client for a while (until its
 * next attempt is due, at most until that acquire stops waiting); a release the lead announces
 * names the first queued client that still listens, and only that client retries at once ({@link
 * ReleaseWaiters}).
 *
 * @param id the client's id ({@link ReleaseWaiters#clientId}), the same for all its acquires
 * @param waitMillis how long the lead node keeps the client queued after a refusal (see {@code
 *     WaitingAcquire}): no longer than the acquire waits
 */
record WaiterTicket(String id, long waitMillis) {

  /** {@code request} as the lead node gets it: with this waiter. */
  LockRequest on(LockRequest request) {
    return new LockRequest(
        request.lockKey(),
        request.fenceKey(),
        request.owner(),
        request.ttlMillis(),
        request.predictedToken(),
        request.predecessorOwner(),
        id,
        waitMillis);
  }
}
