package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Resource bounds. Dozens of proxies and hundreds of concurrent connections: data passes on all of
 * them, and the JVM's thread count does not grow with connections (no thread per connection or per
 * link). A stalled direction: the proxy stops reading instead of buffering without bound.
 */
final class ScaleIT {

  private static final int PROXIES = 50;
  private static final int CONNECTIONS_PER_PROXY = 6;

  /** Headroom for JDK housekeeping threads that may start meanwhile (e.g. HTTP keep-alive). */
  private static final int THREAD_SLACK = 4;

  private static final long MAX_ACCEPTED_WHILE_STALLED = 64L * 1024 * 1024;

  @RegisterExtension static final ProxyServers SERVERS = new ProxyServers();
  private final ToxiproxyTarget target = SERVERS.target();
  private final EchoServer echo = SERVERS.echo();

  @Test
  void manyProxiesAndConnections_passData_withBoundedThreadsAndCleanClose() throws IOException {
    ToxiproxyClient client = target.client();
    List<Proxy> proxies = new ArrayList<>();
    for (int i = 0; i < PROXIES; i++) {
      Proxy proxy = target.createProxy(client, "scale" + i, echo.upstream());
      if (i % 2 == 0) {
        proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 5);
      }
      proxies.add(proxy);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int threadsBefore = threads.getThreadCount();
    int acceptedBefore = echo.acceptedConnections();

    List<TcpClient> connections = openAll(proxies);
    try {
      exchangeOnAll(connections);
      assertThat(echo.acceptedConnections() - acceptedBefore)
          .isEqualTo(PROXIES * CONNECTIONS_PER_PROXY);
      assertThat(threads.getThreadCount()).isLessThanOrEqualTo(threadsBefore + THREAD_SLACK);
    } finally {
      connections.forEach(TcpClient::close);
    }
    target.cleanUp();

    await().atMost(Timing.AWAIT).until(() -> echo.openConnections() == 0);
    assertThat(client.getProxies())
        .extracting(Proxy::getName)
        .noneMatch(name -> name.startsWith("scale"));
  }

  @Test
  void stalledDirection_clientKeepsWriting_proxyStopsReadingAtABound() throws IOException {
    Proxy proxy = target.createProxy(target.client(), "stall", echo.upstream());
    proxy.toxics().bandwidth("stall", ToxicDirection.UPSTREAM, 0); // holds everything it gets
    try (SocketChannel channel = SocketChannel.open(target.address(proxy))) {
      channel.configureBlocking(false);
      long[] written = {0};

      // Done when a whole poll interval passes without the proxy taking another byte.
      await()
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.scaled(Duration.ofMillis(200)))
          .until(() -> writeWhatFits(channel, written) == 0 && written[0] > 0);

      // Proxy buffer (~1 MiB) plus both kernels' socket buffers; without backpressure the
      // proxy would take everything until the wait above timed out.
      assertThat(written[0]).isLessThan(MAX_ACCEPTED_WHILE_STALLED);
    }
  }

  private static long writeWhatFits(SocketChannel channel, long[] total) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    long progress = 0;
    int n;
    while ((n = channel.write(buffer.clear())) > 0) {
      progress += n;
    }
    total[0] += progress;
    return progress;
  }

  private List<TcpClient> openAll(List<Proxy> proxies) {
    List<TcpClient> connections = new ArrayList<>();
    for (Proxy proxy : proxies) {
      for (int c = 0; c < CONNECTIONS_PER_PROXY; c++) {
        connections.add(target.connect(proxy));
      }
    }
    return connections;
  }

  /** Writes to every connection first, then reads every echo: all 300 are in flight at once. */
  private static void exchangeOnAll(List<TcpClient> connections) throws IOException {
    for (int i = 0; i < connections.size(); i++) {
      connections.get(i).write(message(i));
    }
    for (int i = 0; i < connections.size(); i++) {
      assertThat(connections.get(i).readExactly(message(i).length)).isEqualTo(message(i));
    }
  }

  private static byte[] message(int connection) {
    return ("connection-" + connection + "-" + "x".repeat(connection % 97)).getBytes();
  }
}
