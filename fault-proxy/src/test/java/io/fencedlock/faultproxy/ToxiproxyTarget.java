package io.fencedlock.faultproxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.fencedlock.testkit.DockerEngine;
import io.fencedlock.testkit.support.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Toxiproxy server under test, one of three:
 *
 * <ul>
 *   <li>with {@code -D}{@value #CONTAINER_PROPERTY}{@code =true}, this module's server in a
 *       container through Testcontainers' {@code ToxiproxyContainer} ({@link ProxyContainer}), one
 *       per JVM run; the build runs the suite once that way;
 *   <li>else the real Toxiproxy at {@code TOXIPROXY_URL} if that is set (it must run on this
 *       machine, since proxies listen and echo servers bind on loopback);
 *   <li>else an in-process {@link FaultProxyServer} with a logged seed (fix it with {@code
 *       -Dfencedlock.proxy.seed=N}).
 * </ul>
 *
 * Tracks the proxies it creates and deletes them on {@link #cleanUp()}, so tests leave a shared
 * server as they found it.
 *
 * <p>Not thread-safe: one per test class, used from the test thread.
 */
final class ToxiproxyTarget implements AutoCloseable {
  static final String CONTAINER_PROPERTY = "fencedlock.proxy.container";

  private static final Logger log = LoggerFactory.getLogger(ToxiproxyTarget.class);
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final AtomicBoolean SAID_WHY = new AtomicBoolean();
  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(ToxiproxyTarget.class);

  private final FaultProxyServer server;
  private final String host;
  private final int port;
  private final String proxyHost;
  private final InetAddress upstreamHost;
  private final List<String> created = new ArrayList<>();
  private final String runId = Integer.toHexString(new SecureRandom().nextInt(1 << 20));

  /**
   * @param proxyHost where the tests' proxies listen and the tests connect to them
   * @param upstreamHost where the server reaches this JVM's echo servers
   */
  private ToxiproxyTarget(
      FaultProxyServer server, String host, int port, String proxyHost, InetAddress upstreamHost) {
    this.server = server;
    this.host = host;
    this.port = port;
    this.proxyHost = proxyHost;
    this.upstreamHost = upstreamHost;
  }

  static ToxiproxyTarget start(ExtensionContext context) {
    if (Boolean.getBoolean(CONTAINER_PROPERTY)) {
      assumeDocker();
      ProxyContainer container =
          context
              .getRoot()
              .getStore(SHARED)
              .getOrComputeIfAbsent(
                  ProxyContainer.class, type -> ProxyContainer.start(seed()), ProxyContainer.class);
      log.info(
          "conformance tests against the fault proxy container, API {}:{}",
          container.apiHost(),
          container.apiPort());
      return new ToxiproxyTarget(
          null,
          container.apiHost(),
          container.apiPort(),
          container.address(),
          address(container.gateway()));
    }
    InetAddress loopback = InetAddress.getLoopbackAddress();
    String url = System.getenv("TOXIPROXY_URL");
    if (url != null && !url.isBlank()) {
      URI uri = URI.create(url.trim());
      log.info("conformance tests against the Toxiproxy at {}", url);
      return new ToxiproxyTarget(
          null, uri.getHost(), uri.getPort() < 0 ? 8474 : uri.getPort(), "127.0.0.1", loopback);
    }
    long seed = seed();
    FaultProxyServer server = FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0), seed);
    log.info(
        "conformance tests against the in-process fault proxy at {} (seed {})", server.url(), seed);
    return new ToxiproxyTarget(server, "127.0.0.1", server.port(), "127.0.0.1", loopback);
  }

  private static long seed() {
    return Long.getLong("fencedlock.proxy.seed", new SecureRandom().nextLong());
  }

  /**
   * Without a Docker engine the container run is skipped, with the reason; in CI ({@code CI=true}),
   * which prepares an engine, it fails instead.
   */
  private static void assumeDocker() {
    Optional<String> reason = DockerEngine.unavailableReason();
    if (reason.isEmpty()) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail("CI=true but " + reason.get());
    }
    if (SAID_WHY.compareAndSet(false, true)) {
      log.warn("Conformance run against the fault proxy container skipped: {}", reason.get());
    }
    Assumptions.abort("container tests skipped: " + reason.get());
  }

  private static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(
          "Docker gave the bridge a gateway we cannot read: " + literal, e);
    }
  }

  boolean inProcess() {
    return server != null;
  }

  String url() {
    return "http://" + host + ":" + port;
  }

  ToxiproxyClient client() {
    return new ToxiproxyClient(host, port);
  }

  RawHttp raw() {
    return new RawHttp(url());
  }

  /** Where the echo servers bind, so that the server under test reaches them. */
  InetAddress upstreamHost() {
    return upstreamHost;
  }

  /**
   * The host a proxy's listen address resolves to ({@link #anyPortListen()}, {@link #createProxy}).
   */
  String proxyHost() {
    return proxyHost;
  }

  /**
   * A listen address on a free port that the tests can connect to: {@code localhost:0} for a server
   * on this machine, the container's own address otherwise.
   */
  String anyPortListen() {
    return (proxyHost.equals("127.0.0.1") ? "localhost" : proxyHost) + ":0";
  }

  /** A proxy name unique to this run, tracked for clean-up. */
  String uniqueName(String base) {
    String name = base + "-" + runId + "-" + NAMES.incrementAndGet();
    created.add(name);
    return name;
  }

  /** Creates a proxy on an ephemeral port of {@link #proxyHost()} in front of {@code upstream}. */
  Proxy createProxy(ToxiproxyClient client, String base, String upstream) {
    try {
      return client.createProxy(uniqueName(base), proxyHost + ":0", upstream);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Connects a test client to a proxy's listen address. */
  TcpClient connect(Proxy proxy) {
    return TcpClient.connect(proxyHost, listenPort(proxy.getListen()));
  }

  /**
   * Connects to a proxy of a server on this machine (not a target) at its loopback listen address.
   */
  static TcpClient connectOnLoopback(Proxy proxy) {
    return TcpClient.connect("127.0.0.1", listenPort(proxy.getListen()));
  }

  /** A proxy's listen address as this JVM reaches it. */
  InetSocketAddress address(Proxy proxy) {
    return new InetSocketAddress(proxyHost, listenPort(proxy.getListen()));
  }

  /** The port of a listen address; the part after the last colon. */
  static int listenPort(String listen) {
    return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
  }

  /** Deletes every proxy this target created; already-deleted ones are fine. */
  void cleanUp() {
    RawHttp raw = raw();
    for (String name : created) {
      int status = raw.delete("/proxies/" + name).status();
      if (status != 204 && status != 404) {
        throw new IllegalStateException("cleaning up proxy " + name + " got HTTP " + status);
      }
    }
    created.clear();
  }

  @Override
  public void close() {
    try {
      cleanUp();
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }
}
