/**
 * {@link io.fencedlock.storage.FencedStore} on a database: {@link
 * io.fencedlock.storage.store.JdbcFencedStore} checks the token and writes in one conditional
 * upsert, on SQLite or PostgreSQL. The package-private {@code Dialect} (what differs between the
 * two) and {@code ConnectionPool} support it; {@link io.fencedlock.storage.store.StoreException} is
 * its failure.
 */
package io.fencedlock.storage.store;
