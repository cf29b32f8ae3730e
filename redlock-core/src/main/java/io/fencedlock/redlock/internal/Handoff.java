package io.fencedlock.redlock.internal;

import java.util.concurrent.CompletableFuture;

/**
 * A lease of this client passing its lock straight to an acquire of this client that waits for
 * it: the waiter's next attempt deletes the predecessor's key in the same script that locks
 * for the waiter (acquire.lua, ARGV[5]), so the release costs no round trip of its own and is
 * not announced.
 *
 * @param predecessorOwner the owner id of the lease being released
 * @param inARow how many local handoffs in a row, this one included, led to the new lease
 * @param predecessorReleased completed by the attempt once its lock step has decided (a quorum
 *     granted, or that became impossible): the predecessor's release is then as far along as
 *     a release that returns at a quorum; never fails
 */
record Handoff(String predecessorOwner, int inARow, CompletableFuture<Void> predecessorReleased) {}
