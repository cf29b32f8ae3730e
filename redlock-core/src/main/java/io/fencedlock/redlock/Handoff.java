package io.fencedlock.redlock;

import java.util.concurrent.CompletableFuture;

/**
 * A lease of this client passing its lock straight to an acquire of this client that waits for it:
 * the waiter's next attempt deletes the predecessor's key in the same script that locks for the
 * waiter (acquire.lua with ARGV[5], or handoff.lua when unfenced), so the release costs no round
 * trip of its own and is not announced.
 *
 * @param predecessorOwner the owner id of the lease being released
 * @param inARow how many local handoffs in a row, this one included, led to the new lease
 * @param predecessorReleased completed once the successor's attempt has finished (granted, or
 *     failed and cleaned up): the predecessor's key is gone by then wherever the lock step ran;
 *     never fails
 */
record Handoff(String predecessorOwner, int inARow, CompletableFuture<Void> predecessorReleased) {}
