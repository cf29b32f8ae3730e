package io.fencedlock.faultproxy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process, Toxiproxy-compatible fault proxy server: the HTTP control API plus every proxy
 * created through it. Drive it with {@code eu.rekawek.toxiproxy.ToxiproxyClient}.
 *
 * <pre>{@code
 * try (FaultProxyServer server = FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0))) {
 *     ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", server.port());
 *     Proxy redis = client.createProxy("redis", "127.0.0.1:0", "127.0.0.1:6379");
 *     redis.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 100);
 * }
 * }</pre>
 *
 * <p>Randomness (toxicity draws, latency jitter, slice sizes) comes from one generator seeded at
 * start; the seed is logged and available from {@link #seed()}, and passing it to {@link
 * #start(InetSocketAddress, long)} reproduces the same draws for the same sequence of events.
 *
 * <p>Thread-safe. {@link #close()} is idempotent.
 */
public final class FaultProxyServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(FaultProxyServer.class);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

  private final IoLoop loop;
  private final ProxyRegistry registry;
  private final ApiServer api;
  private final long seed;
  private final AtomicBoolean closed = new AtomicBoolean();

  private FaultProxyServer(IoLoop loop, ProxyRegistry registry, ApiServer api, long seed) {
    this.loop = loop;
    this.registry = registry;
    this.api = api;
    this.seed = seed;
  }

  /**
   * Starts a server with a random seed.
   *
   * @param apiAddress where the HTTP API listens; port 0 picks a free port
   * @throws java.io.UncheckedIOException if the API address cannot be bound
   */
  public static FaultProxyServer start(InetSocketAddress apiAddress) {
    return start(apiAddress, new SecureRandom().nextLong());
  }

  /**
   * Starts a server whose random draws are fixed by {@code seed}.
   *
   * @param apiAddress where the HTTP API listens; port 0 picks a free port
   * @throws java.io.UncheckedIOException if the API address cannot be bound
   */
  public static FaultProxyServer start(InetSocketAddress apiAddress, long seed) {
    IoLoop loop = IoLoop.start("fault-proxy-io", seed);
    try {
      ProxyRegistry registry = new ProxyRegistry(loop);
      ApiServer api = ApiServer.start(apiAddress, new ApiRoutes(new ApiHandlers(loop, registry)));
      FaultProxyServer server = new FaultProxyServer(loop, registry, api, seed);
      log.info("fault proxy API on {} (seed {})", server.url(), seed);
      return server;
    } catch (RuntimeException e) {
      loop.close();
      throw e;
    }
  }

  /** The API base URL, e.g. {@code http://127.0.0.1:8474}; a wildcard bind reports loopback. */
  public String url() {
    InetAddress ip = api.address().getAddress();
    String host;
    if (ip == null || ip.isAnyLocalAddress()) {
      host = "127.0.0.1";
    } else if (ip instanceof Inet6Address) {
      host = "[" + ip.getHostAddress() + "]";
    } else {
      host = ip.getHostAddress();
    }
    return "http://" + host + ":" + port();
  }

  /** The port the API listens on. */
  public int port() {
    return api.address().getPort();
  }

  /** The seed of this server's random draws. */
  public long seed() {
    return seed;
  }

  /**
   * Stops the API, then closes every proxy's listener and connections and stops the I/O thread.
   * Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    api.close();
    try {
      loop.call(
          () -> {
            registry.closeAll();
            return null;
          },
          SHUTDOWN_TIMEOUT);
    } finally {
      loop.close();
    }
    log.info("fault proxy on port {} closed", port());
  }
}
