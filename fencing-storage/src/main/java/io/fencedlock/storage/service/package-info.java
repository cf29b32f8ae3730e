/**
 * The fenced storage service: {@link io.fencedlock.storage.store.JdbcFencedStore} behind the HTTP
 * contract of {@link io.fencedlock.storage.StorageProtocol}. {@link
 * io.fencedlock.storage.service.StorageService} runs it in-process (configured by {@link
 * io.fencedlock.storage.service.StorageConfig}); {@link
 * io.fencedlock.storage.service.StorageServiceMain} is the standalone command. The
 * package-private {@code Router}, {@code Route}, {@code ObjectEndpoints}, {@code WriteHeaders},
 * {@code BoundedBody}, {@code HttpResponses}, {@code JsonBodies}, {@code InFlightRequests} and
 * {@code WriteCounters} handle HTTP.
 */
package io.fencedlock.storage.service;
