/**
 * The storage service's client: {@link io.fencedlock.storage.client.FencedStorageClient}, a
 * blocking {@link io.fencedlock.storage.FencedStore} over HTTP, and its failures ({@link
 * io.fencedlock.storage.client.StorageClientException}, {@link
 * io.fencedlock.storage.client.StorageTimeoutException}).
 */
package io.fencedlock.storage.client;
