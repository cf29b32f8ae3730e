package io.fencedlock.faultproxy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP control API on the JDK's built-in server (HTTP/1.1 with keep-alive). Handlers run on a
 * small fixed pool, so the API's threads do not grow with clients.
 *
 * <p>Thread-safe.
 */
final class ApiServer implements AutoCloseable {

  private static final int API_THREADS = 2;
  private static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

  static {
    // The JDK server writes headers and body in two segments; with Nagle on, the body waits
    // for the client's delayed ACK (~40 ms per request). Read once, when the server class
    // initialises, so it must be set before the first HttpServer is created; an explicit
    // setting by the application wins.
    if (System.getProperty(NODELAY_PROPERTY) == null) {
      System.setProperty(NODELAY_PROPERTY, "true");
    }
  }

  private final HttpServer http;
  private final ExecutorService executor;

  private ApiServer(HttpServer http, ExecutorService executor) {
    this.http = http;
    this.executor = executor;
  }

  /**
   * Binds {@code address} and starts serving {@code routes}.
   *
   * @throws UncheckedIOException if the address cannot be bound
   */
  static ApiServer start(InetSocketAddress address, ApiRoutes routes) {
    HttpServer http;
    try {
      http = HttpServer.create(address, 64);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the fault proxy API to " + address, e);
    }
    AtomicInteger count = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            API_THREADS,
            task -> {
              Thread thread = new Thread(task, "fault-proxy-api-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    http.createContext("/", routes);
    http.setExecutor(executor);
    http.start();
    return new ApiServer(http, executor);
  }

  InetSocketAddress address() {
    return http.getAddress();
  }

  /** Stops accepting requests and releases the threads. */
  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
  }
}
