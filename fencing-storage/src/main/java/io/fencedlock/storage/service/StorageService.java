package io.fencedlock.storage.service;

import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.store.JdbcFencedStore;
import io.fencedlock.storage.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fenced object store over HTTP, running in this JVM until {@link #close()}d. See {@link
 * StorageProtocol} for the HTTP contract, and {@link StorageConfig} for the limits that keep slow
 * clients and overload from starving it.
 *
 * <p>Owns its {@link FencedStore}, a Jetty server whose threads never wait for the database, and
 * the {@link StoreWorkers} that run store calls behind a bounded queue: a request that finds the
 * queue full is answered 503 with {@code Retry-After} at once. Thread-safe; {@code close()} is
 * idempotent.
 */
public final class StorageService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StorageService.class);

  private final StorageConfig config;
  private final FencedStore store;
  private final StoreWorkers workers;
  private final ServiceMetrics metrics;
  private final Server server;
  private final int port;
  private final AtomicBoolean closed = new AtomicBoolean();

  private StorageService(
      StorageConfig config,
      FencedStore store,
      StoreWorkers workers,
      ServiceMetrics metrics,
      Server server) {
    this.config = config;
    this.store = store;
    this.workers = workers;
    this.metrics = metrics;
    this.server = server;
    this.port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  /**
   * Opens the database and starts serving on 127.0.0.1.
   *
   * @throws StoreException if the database cannot be opened
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static StorageService start(StorageConfig config) {
    return start(config, JdbcFencedStore.open(config.jdbcUrl(), config.storeTimeouts()));
  }

  /**
   * Starts serving {@code store} on 127.0.0.1 instead of a store opened from the configuration's
   * JDBC URL (whose value then only appears in the log). The service owns the store from now on and
   * closes it. For harnesses that wrap the store, such as the chaos harness's negative control
   * whose store accepts stale tokens; a production service uses {@link #start(StorageConfig)}.
   *
   * @throws UncheckedIOException if the port cannot be bound (the store is closed)
   */
  public static StorageService start(StorageConfig config, FencedStore store) {
    StoreWorkers workers =
        new StoreWorkers(config.workerThreads(), config.queueCapacity(), config.queueTimeout());
    ServiceMetrics metrics = ServiceMetrics.in(config.meterRegistry());
    metrics.storeLoad(workers::running, workers::queued);
    Server server = null;
    try {
      server = JettyServers.create(config, metrics);
      server.setHandler(JettyServers.graceful(handler(config, store, workers, metrics, server)));
      server.start();
      StorageService service = new StorageService(config, store, workers, metrics, server);
      log.info("fenced storage at {} on {}", service.url(), config.jdbcUrl());
      return service;
    } catch (Exception e) {
      stopQuietly(server, e);
      workers.close();
      store.close();
      metrics.removeGauges();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot bind port " + config.port(), io);
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("cannot start the HTTP server", e);
    }
  }

  /** The base URL, {@code http://127.0.0.1:PORT}, without a trailing slash. */
  public URI url() {
    return URI.create("http://127.0.0.1:" + port());
  }

  /** The bound port. */
  public int port() {
    return port;
  }

  /**
   * Stops accepting connections, answers 503 to requests that arrive meanwhile, lets running
   * requests finish for up to the configured stop grace, stops the server (closing the connections
   * of requests still running), lets store calls already running finish within a second grace, then
   * closes the database. Store calls still queued when their connections closed are skipped, not
   * run: no one could be told of them. A request cut off by the stop never leaves a half-done
   * write: each write is one transaction, and it was not acknowledged.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      stopServer();
      if (!workers.shutdown(config.stopGrace())) {
        log.warn("store calls still running after {}; interrupted", config.stopGrace());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      workers.close();
    } finally {
      store.close();
      metrics.removeGauges();
    }
    log.info("fenced storage on port {} stopped", port);
  }

  /** Jetty's graceful stop: waits up to stopGrace for requests in flight, then closes them. */
  private void stopServer() throws InterruptedException {
    try {
      server.stop();
    } catch (InterruptedException e) {
      throw e;
    } catch (TimeoutException e) {
      // Jetty has closed their connections; the store calls still get the second grace below.
      log.warn(
          "requests still running after {}; their connections were closed", config.stopGrace());
    } catch (Exception e) {
      log.warn("stopping the HTTP server failed; stopping the store calls anyway", e);
    }
  }

  private static StorageHandler handler(
      StorageConfig config,
      FencedStore store,
      StoreWorkers workers,
      ServiceMetrics metrics,
      Server server) {
    WriteCounters counters = new WriteCounters();
    Scheduler scheduler = server.getBean(Scheduler.class);
    ObjectEndpoints objects =
        new ObjectEndpoints(store, workers, counters, metrics, config.bodyTimeout(), scheduler);
    Failures failures = new Failures(metrics, config.retryAfter());
    return new StorageHandler(objects, store, workers, counters, metrics, failures);
  }

  private static void stopQuietly(Server server, Exception cause) {
    if (server == null) {
      return;
    }
    try {
      server.stop();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }
}
