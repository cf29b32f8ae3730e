/**
 * A fenced object store: objects that accept a write only if its fencing token is not older than
 * the newest token the object has seen, so a lock holder that lost its lease (paused, delayed,
 * partitioned) can never overwrite the work of a newer holder.
 *
 * <h2>Where things live</h2>
 *
 * <ul>
 *   <li>This package: what every side shares. The {@link io.fencedlock.storage.FencedStore}
 *       interface, its values ({@link io.fencedlock.storage.WriteResult}, {@link
 *       io.fencedlock.storage.StoredObject}, {@link io.fencedlock.storage.Stats}), its failure
 *       ({@link io.fencedlock.storage.FencedStoreException}) and the wire contract ({@link
 *       io.fencedlock.storage.StorageProtocol}).
 *   <li>{@link io.fencedlock.storage.store}: the store on a database, {@link
 *       io.fencedlock.storage.store.JdbcFencedStore} (SQLite or PostgreSQL).
 *   <li>{@link io.fencedlock.storage.service}: the HTTP service in front of it, in-process ({@link
 *       io.fencedlock.storage.service.StorageService}) or standalone ({@link
 *       io.fencedlock.storage.service.StorageServiceMain}).
 *   <li>{@link io.fencedlock.storage.client}: the service's client, {@link
 *       io.fencedlock.storage.client.FencedStorageClient}, itself a {@code FencedStore}.
 * </ul>
 *
 * <p>Every error type is unchecked. A stale token is not an error: it is a {@link
 * io.fencedlock.storage.WriteResult.Rejected} result. Nothing here depends on the lock library: a
 * resource checks tokens, whoever issued them.
 */
package io.fencedlock.storage;
