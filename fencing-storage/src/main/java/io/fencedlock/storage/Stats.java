package io.fencedlock.storage;

/**
 * Counters of write outcomes since the service started (they are not persisted). Writes and fences
 * are counted together. Immutable and thread-safe.
 *
 * @param accepted writes and fences that were applied
 * @param rejectedStale writes and fences rejected because their token was lower than the object's
 * @param alarms writes and fences rejected because another owner already used the same token
 */
public record Stats(long accepted, long rejectedStale, long alarms) {}
