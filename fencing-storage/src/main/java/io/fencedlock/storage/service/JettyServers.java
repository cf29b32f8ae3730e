package io.fencedlock.storage.service;

import java.net.InetAddress;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Builds the Jetty server of a {@link StorageService} from its {@link StorageConfig}: one HTTP/1.1
 * connector on loopback with the idle timeout, the connection limit and the head deadline; a
 * bounded thread pool (HTTP threads only parse, read and write: they never wait for the database);
 * JSON error answers; and a graceful stop that answers 503 to requests arriving while it waits for
 * running ones. Stateless.
 */
final class JettyServers {
  /** HTTP threads: selectors, acceptors and the handler, which never blocks. */
  private static final int MAX_THREADS = 32;

  private static final int MIN_THREADS = 4;

  /** Connections the kernel holds for us while the connection limit pauses accepting. */
  private static final int ACCEPT_BACKLOG = 1024;

  /**
   * During a stop, how long a keep-alive connection may sit idle before it is closed; without this
   * Jetty's graceful stop waits a second for every idle client connection.
   */
  private static final long STOP_IDLE_MILLIS = 100;

  /**
   * The largest request head, request line included; more is refused with 431 (414 if the line).
   */
  private static final int MAX_HEAD_BYTES = 8 * 1024;

  private JettyServers() {}

  /**
   * A server without a handler (set one wrapped by {@link #graceful}, then {@code start()}); the
   * connector is its only one, and its {@link Scheduler} is a bean.
   */
  static Server create(StorageConfig config, ServiceMetrics metrics) {
    // Jetty's own task queue stays unbounded, as Jetty requires: its tasks are short I/O steps
    // that never wait for the database. The bounded request queue is StoreWorkers'.
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, MIN_THREADS, 60_000);
    threads.setName("fenced-storage-http");
    threads.setDaemon(true);
    Server server = new Server(threads);
    Scheduler scheduler = new ScheduledExecutorScheduler("fenced-storage-timer", true);
    server.addBean(scheduler);

    ServerConnector connector =
        new ServerConnector(server, null, scheduler, null, 1, 1, connectionFactory());
    connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    connector.setPort(config.port());
    connector.setIdleTimeout(config.idleTimeout().toMillis());
    connector.setAcceptQueueSize(ACCEPT_BACKLOG);
    server.addConnector(connector);
    server.addBean(new ConnectionLimit(config.maxConnections(), connector));
    server.addBean(new HeadDeadline(connector, scheduler, config.headerTimeout(), metrics));

    server.setErrorHandler(new JsonErrorHandler());
    server.setStopTimeout(config.stopGrace().toMillis());
    server.setStopAtShutdown(false); // StorageServiceMain's hook closes the database after it
    return server;
  }

  /** {@code handler} behind a graceful stop that refuses new requests as the service does. */
  static Handler graceful(Handler handler) {
    return new RefusingWhileStopping(handler);
  }

  private static HttpConnectionFactory connectionFactory() {
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(MAX_HEAD_BYTES);
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    // Keys are checked by the service itself, strictly; let odd paths reach it so that they get
    // the service's own 400 or 404 instead of Jetty's.
    http.setUriCompliance(UriCompliance.UNSAFE);
    return new HttpConnectionFactory(http);
  }

  /**
   * Jetty's graceful stop, answering the requests that arrive during it as the service answers
   * errors: 503, JSON, and the connection closed.
   */
  private static final class RefusingWhileStopping extends GracefulHandler {
    RefusingWhileStopping(Handler handler) {
      super(handler);
      setShutdownIdleTimeout(STOP_IDLE_MILLIS);
    }

    @Override
    protected void handleShutdownRejection(Request request, Response response, Callback callback) {
      response.setStatus(503);
      response.getHeaders().put("Content-Type", "application/json; charset=utf-8");
      response.getHeaders().put("Connection", "close");
      response.write(
          true,
          java.nio.ByteBuffer.wrap(JsonBodies.encode(new JsonBodies.Error("shutting down"))),
          callback);
    }
  }
}
