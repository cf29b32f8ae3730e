package io.fencedlock.storage.service;

import com.sun.net.httpserver.HttpServer;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.store.JdbcFencedStore;
import io.fencedlock.storage.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fenced object store over HTTP, running in this JVM until {@link #close()}d. See {@link
 * StorageProtocol} for the HTTP contract.
 *
 * <p>Owns its {@link FencedStore}, its HTTP server and a bounded pool of handler threads. When the
 * queue in front of the pool is full, the server's accept thread runs the request itself, which
 * stops it accepting more: back-pressure instead of unbounded memory. Thread-safe; {@code close()}
 * is idempotent.
 */
public final class StorageService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StorageService.class);
  private static final int BACKLOG = 128;
  private static final int STOP_GRACE_SECONDS = 2;

  private final FencedStore store;
  private final HttpServer server;
  private final ThreadPoolExecutor workers;
  private final InFlightRequests inFlight;
  private final int port;
  private final AtomicBoolean closed = new AtomicBoolean();

  private StorageService(
      FencedStore store, HttpServer server, ThreadPoolExecutor workers, InFlightRequests inFlight) {
    this.store = store;
    this.inFlight = inFlight;
    this.server = server;
    this.workers = workers;
    this.port = server.getAddress().getPort();
  }

  /**
   * Opens the database and starts serving on 127.0.0.1.
   *
   * @throws StoreException if the database cannot be opened
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static StorageService start(StorageConfig config) {
    FencedStore store = JdbcFencedStore.open(config.jdbcUrl());
    ThreadPoolExecutor workers = newWorkers(config);
    InFlightRequests inFlight = new InFlightRequests();
    try {
      InetSocketAddress address =
          new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port());
      HttpServer server = HttpServer.create(address, BACKLOG);
      server.createContext("/", new Router(store, new WriteCounters(), inFlight));
      server.setExecutor(workers);
      server.start();
      StorageService service = new StorageService(store, server, workers, inFlight);
      log.info("fenced storage at {} on {}", service.url(), config.jdbcUrl());
      return service;
    } catch (IOException e) {
      workers.shutdownNow();
      store.close();
      throw new UncheckedIOException("cannot bind port " + config.port(), e);
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
   * Refuses new requests (503), lets running ones finish for up to {@value #STOP_GRACE_SECONDS}
   * seconds, stops the server, then closes the database. A request cut off after the grace period
   * never leaves a half-done write: each write is one transaction.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Duration grace = Duration.ofSeconds(STOP_GRACE_SECONDS);
    try {
      if (!inFlight.drain(grace)) {
        log.warn("requests still running after {}; closing anyway", grace);
      }
      server.stop(0);
      workers.shutdown();
      if (!workers.awaitTermination(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.stop(0);
      workers.shutdownNow();
    } finally {
      store.close();
    }
    log.info("fenced storage on port {} stopped", port);
  }

  private static ThreadPoolExecutor newWorkers(StorageConfig config) {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            config.workerThreads(),
            config.workerThreads(),
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(config.queueCapacity()),
            namedThreads(),
            new ThreadPoolExecutor.CallerRunsPolicy());
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  private static ThreadFactory namedThreads() {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "fenced-storage-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
