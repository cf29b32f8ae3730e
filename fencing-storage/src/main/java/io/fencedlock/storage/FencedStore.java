package io.fencedlock.storage;

import java.util.Optional;

/**
 * Durable objects guarded by fencing tokens.
 *
 * <p>Each object keeps its highest token and that token's owner. A write or fence with token {@code
 * t} by {@code owner} is applied iff {@code t > maxToken}, or {@code t == maxToken && owner ==
 * maxOwner} (the same holder writing twice); the check and the change are one atomic step, so per
 * object the applied tokens never decrease. An equal token from another owner is rejected as {@link
 * WriteResult.Reason#ALARM}.
 *
 * <p>Implementations are thread-safe, and a result is returned only after the change is durable.
 * There are two: {@link io.fencedlock.storage.store.JdbcFencedStore} on a database, and {@link
 * io.fencedlock.storage.client.FencedStorageClient} on the storage service, which runs a {@code
 * JdbcFencedStore} behind its HTTP API. A failure is a {@link FencedStoreException} from either:
 * the database's {@code StoreException} or the client's {@code StorageClientException}.
 */
public interface FencedStore extends AutoCloseable {

  /**
   * Writes {@code value} if the token is accepted.
   *
   * @throws IllegalArgumentException if key, token or owner break {@link StorageProtocol}'s rules,
   *     or the value is larger than {@link StorageProtocol#MAX_VALUE_BYTES}
   * @throws FencedStoreException if the store fails; the outcome is unknown
   */
  WriteResult put(String key, byte[] value, long token, String owner);

  /**
   * Raises the object's highest token and owner without writing a value, creating an object without
   * a value if it does not exist. Used to fence before a read-modify-write.
   *
   * @throws IllegalArgumentException if key, token or owner break {@link StorageProtocol}'s rules
   * @throws FencedStoreException if the store fails; the outcome is unknown
   */
  WriteResult fence(String key, long token, String owner);

  /**
   * Reads an object. Empty when no value was ever written, even if the object was fenced.
   *
   * @throws IllegalArgumentException if the key is not legal
   * @throws FencedStoreException if the store fails
   */
  Optional<StoredObject> get(String key);

  /** Returns whether the store answers a trivial request; never throws. */
  boolean isHealthy();

  /** Releases what the store holds (database connections). Idempotent. */
  @Override
  void close();
}
