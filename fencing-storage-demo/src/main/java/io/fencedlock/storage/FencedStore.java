package io.fencedlock.storage;

import java.util.Optional;

/**
 * Durable objects guarded by fencing tokens.
 *
 * <p>Each object keeps its highest token and that token's owner. A write or fence with token
 * {@code t} by {@code owner} is applied iff {@code t > maxToken}, or {@code t == maxToken && owner
 * == maxOwner} (the same holder writing twice); the check and the change are one atomic step, so
 * per object the applied tokens never decrease. An equal token from another owner is rejected as
 * {@link WriteResult.Reason#ALARM}.
 *
 * <p>Implementations are thread-safe, and a result is returned only after the change is durable.
 */
public interface FencedStore extends AutoCloseable {

  /**
   * Writes {@code value} if the token is accepted.
   *
   * @throws IllegalArgumentException if key, token or owner break {@link StorageProtocol}'s rules,
   *     or the value is larger than {@link StorageProtocol#MAX_VALUE_BYTES}
   * @throws StoreException if the database fails
   */
  WriteResult put(String key, byte[] value, long token, String owner);

  /**
   * Raises the object's highest token and owner without writing a value, creating an object
   * without a value if it does not exist. Used to fence before a read-modify-write.
   *
   * @throws IllegalArgumentException if key, token or owner break {@link StorageProtocol}'s rules
   * @throws StoreException if the database fails
   */
  WriteResult fence(String key, long token, String owner);

  /**
   * Reads an object. Empty when no value was ever written, even if the object was fenced.
   *
   * @throws IllegalArgumentException if the key is not legal
   * @throws StoreException if the database fails
   */
  Optional<StoredObject> get(String key);

  /** Returns whether the database answers a trivial query; never throws. */
  boolean isHealthy();

  /** Releases the database connections. Idempotent. */
  @Override
  void close();
}
