/**
 * A fenced object store: an HTTP service that accepts a write only if its fencing token is not
 * older than the newest token the object has seen, so a lock holder that lost its lease (paused,
 * delayed, partitioned) can never overwrite the work of a newer holder.
 *
 * <h2>Where things live</h2>
 *
 * <ul>
 *   <li>Values and the wire contract: {@link io.fencedlock.storage.WriteResult}, {@link
 *       io.fencedlock.storage.StoredObject}, {@link io.fencedlock.storage.Stats}, {@link
 *       io.fencedlock.storage.StorageProtocol}.
 *   <li>Storage: {@link io.fencedlock.storage.FencedStore} and its one implementation {@link
 *       io.fencedlock.storage.JdbcFencedStore} (SQLite or PostgreSQL); the package-private {@code
 *       Dialect} and {@code ConnectionPool} support it.
 *   <li>Service: {@link io.fencedlock.storage.StorageService} (in-process) and {@link
 *       io.fencedlock.storage.StorageServiceMain} (command line); the package-private {@code
 *       Router}, {@code Route}, {@code ObjectEndpoints}, {@code WriteHeaders}, {@code
 *       BoundedBody}, {@code HttpResponses} and {@code JsonBodies} handle HTTP.
 *   <li>Client: {@link io.fencedlock.storage.FencedStorageClient}.
 * </ul>
 *
 * <p>Every error type is unchecked. A stale token is not an error: it is a {@link
 * io.fencedlock.storage.WriteResult.Rejected} result.
 */
package io.fencedlock.storage;
