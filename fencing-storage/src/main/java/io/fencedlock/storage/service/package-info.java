/**
 * The fenced storage service: {@link io.fencedlock.storage.store.JdbcFencedStore} behind the HTTP
 * contract of {@link io.fencedlock.storage.StorageProtocol}, on Jetty. {@link
 * io.fencedlock.storage.service.StorageService} runs it in-process (configured by {@link
 * io.fencedlock.storage.service.StorageConfig}, limits and meters included); {@link
 * io.fencedlock.storage.service.StorageServiceMain} is the standalone command. The package-private
 * classes handle HTTP: {@code JettyServers} (the server and its limits), {@code HeadDeadline},
 * {@code StorageHandler} and {@code Route} (routing), {@code ObjectEndpoints}, {@code
 * WriteHeaders}, {@code BodyReader}, {@code StoreWorkers} (the bounded queue in front of the
 * store), {@code Exchange} and {@code Failures} (answers), {@code JsonBodies}, {@code
 * JsonErrorHandler}, {@code WriteCounters} and {@code ServiceMetrics}.
 */
package io.fencedlock.storage.service;
