package io.fencedlock.bench;

import com.google.gson.Gson;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.store.JdbcFencedStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The storage service's HTTP front end before issue 19, kept for the benchmark only: the JDK's
 * {@code HttpServer} with 16 handler threads behind a queue of 256 that makes the accept thread run
 * a request itself when full, exactly as {@code StorageService} was configured until then. It
 * serves the path the benchmark measures, {@code PUT /objects/{key}}, doing the same work as that
 * version did (validate key and headers, read the body whole, one store call, a JSON answer with
 * Gson), over the same {@link JdbcFencedStore}. Not for anything else: it has none of the limits
 * the service now has. Thread-safe.
 *
 * <p>One difference from the service as it was: the JDK server gets TCP_NODELAY ({@value #NODELAY},
 * unless set otherwise on the command line). Without it every response waited about 40 ms for
 * Nagle's algorithm to meet the client's delayed ACK, which the old service paid too; the
 * comparison is meant to measure the servers, not that missing socket option. {@code
 * JAVA_TOOL_OPTIONS=-Dsun.net.httpserver.nodelay=false ./fencedlock bench --storage} measures the
 * old service exactly as it was.
 */
final class JdkHttpBaseline implements AutoCloseable {
  /** Read once, when the JDK's server classes load, so it is set before the first server. */
  static final String NODELAY = "sun.net.httpserver.nodelay";

  static {
    System.getProperties().putIfAbsent(NODELAY, "true");
  }

  private static final int WORKERS = 16;
  private static final int QUEUE = 256;
  private static final int BACKLOG = 128;
  private static final Gson GSON = new Gson();

  private final JdbcFencedStore store;
  private final HttpServer server;
  private final ThreadPoolExecutor workers;

  private JdkHttpBaseline(JdbcFencedStore store, HttpServer server, ThreadPoolExecutor workers) {
    this.store = store;
    this.server = server;
    this.workers = workers;
  }

  static JdkHttpBaseline start(String jdbcUrl) {
    JdbcFencedStore store = JdbcFencedStore.open(jdbcUrl);
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            WORKERS,
            WORKERS,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUE),
            new ThreadPoolExecutor.CallerRunsPolicy());
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), BACKLOG);
      JdkHttpBaseline baseline = new JdkHttpBaseline(store, server, workers);
      server.createContext("/", baseline::handle);
      server.setExecutor(workers);
      server.start();
      return baseline;
    } catch (IOException e) {
      workers.shutdownNow();
      store.close();
      throw new UncheckedIOException("cannot start the baseline server", e);
    }
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      if (!exchange.getRequestMethod().equals("PUT") || !path.startsWith("/objects/")) {
        send(exchange, 404, Map.of("error", "the baseline serves PUT /objects/{key} only"));
        return;
      }
      String key = path.substring("/objects/".length());
      String token = single(exchange, StorageProtocol.TOKEN_HEADER);
      String owner = single(exchange, StorageProtocol.OWNER_HEADER);
      if (!StorageProtocol.isValidKey(key)
          || token == null
          || owner == null
          || !StorageProtocol.isValidOwner(owner)) {
        send(exchange, 400, Map.of("error", "bad request"));
        return;
      }
      long parsed = StorageProtocol.parseToken(token);
      byte[] value = exchange.getRequestBody().readNBytes(StorageProtocol.MAX_VALUE_BYTES + 1);
      WriteResult result = store.put(key, value, parsed, owner);
      if (result instanceof WriteResult.Rejected rejected) {
        send(
            exchange,
            409,
            Map.of(
                "error",
                "rejected",
                "result",
                "rejected",
                "reason",
                rejected.reason().name(),
                "currentToken",
                rejected.currentToken(),
                "key",
                key));
      } else {
        send(
            exchange,
            200,
            Map.of("result", "accepted", "key", key, "token", parsed, "owner", owner));
      }
    }
  }

  private static String single(HttpExchange exchange, String name) {
    List<String> values = exchange.getRequestHeaders().get(name);
    return values == null || values.size() != 1 ? null : values.get(0).strip();
  }

  private static void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
    store.close();
  }
}
