package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The toxics' effect on real TCP traffic through the proxy to an echo server. Lower bounds are the
 * toxics' specified behaviour and are never scaled; upper bounds come from {@link Timing} and are
 * generous because the machine is shared. Where a test tells a delayed exchange from an undelayed
 * one, the delay itself is scaled, so that on a slow machine the two stay apart.
 */
final class ToxicTrafficIT {

  private static final byte[] PING = "ping".getBytes();

  /** A window in which something must NOT happen (data through a timeout toxic). */
  private static final Duration QUIET_WINDOW = Timing.scaled(Duration.ofMillis(300));

  /** A latency large enough that an exchange without it is clearly faster, on any machine. */
  private static final Duration DISTINCT_LATENCY = Timing.scaled(Duration.ofMillis(300));

  @RegisterExtension static final ProxyServers SERVERS = new ProxyServers();
  private final ToxiproxyClient client = SERVERS.target().client();
  private final Random random = new Random(42);

  @Test
  void latency_downstream100ms_delaysRoundTripByAtLeast100ms() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "latency", SERVERS.echo().upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 100);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      Duration roundTrip = timed(() -> assertThat(connection.roundTrip(PING)).isEqualTo(PING));

      assertThat(roundTrip)
          .isGreaterThanOrEqualTo(Duration.ofMillis(100))
          .isLessThan(Timing.generousUpperBound(Duration.ofMillis(100)));
    }
  }

  @Test
  void latency_addedThenRemovedOnLiveConnection_appliesThenStops() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "livelatency", SERVERS.echo().upstream());
    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.roundTrip(PING);
      Latency latency =
          proxy.toxics().latency("lat", ToxicDirection.UPSTREAM, DISTINCT_LATENCY.toMillis());

      Duration slow = timed(() -> connection.roundTrip(PING));
      latency.remove();
      Duration fast = timed(() -> connection.roundTrip(PING));

      assertThat(slow).isGreaterThanOrEqualTo(DISTINCT_LATENCY);
      assertThat(fast).isLessThan(DISTINCT_LATENCY);
    }
  }

  @Test
  void toxicity_zero_toxicDoesNotRunOnNewConnections() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "toxicity", SERVERS.echo().upstream());
    Duration latency = Timing.scaled(Duration.ofSeconds(1));
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, latency.toMillis()).setToxicity(0f);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      Duration roundTrip = timed(() -> connection.roundTrip(PING));

      assertThat(roundTrip).isLessThan(latency);
    }
  }

  @Test
  void timeout_downstream_dropsDataAndClosesAfterTimeout() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "timeout", SERVERS.echo().upstream());
    proxy.toxics().timeout("to", ToxicDirection.DOWNSTREAM, 400);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(PING);
      byte[][] received = new byte[1][];
      Duration untilClosed = timed(() -> received[0] = connection.readToEnd());

      assertThat(received[0]).isEmpty();
      assertThat(untilClosed)
          .isGreaterThanOrEqualTo(Duration.ofMillis(300))
          .isLessThan(Timing.generousUpperBound(Duration.ofMillis(400)));
    }
  }

  @Test
  void timeout_zero_dropsDataUntilRemovedThenCloses() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "timeout0", SERVERS.echo().upstream());
    Timeout timeout = proxy.toxics().timeout("to", ToxicDirection.DOWNSTREAM, 0);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(PING);
      assertThat(connection.readWithin(QUIET_WINDOW)).isEmpty();

      timeout.remove();

      assertThat(connection.readToEnd()).isEmpty();
    }
  }

  @Test
  void reset_timeoutToxicOnLiveConnection_closesIt() throws IOException {
    ToxiproxyClient fresh = SERVERS.target().client();
    Proxy proxy = SERVERS.target().createProxy(fresh, "resettimeout", SERVERS.echo().upstream());
    proxy.toxics().timeout("to", ToxicDirection.UPSTREAM, 0);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(PING);
      assertThat(connection.readWithin(QUIET_WINDOW)).isEmpty();

      fresh.reset();

      assertThat(connection.readToEnd()).isEmpty();
    }
  }

  @Test
  void resetPeer_upstreamPresentAtConnect_resetsClientConnection() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "resetpeer", SERVERS.echo().upstream());
    proxy.toxics().resetPeer("rp", ToxicDirection.UPSTREAM, 0);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(PING);

      assertThatThrownBy(connection::readToEnd)
          .isInstanceOf(SocketException.class)
          .hasMessageContaining("Connection reset");
    }
  }

  @Test
  void resetPeer_withTimeout_waitsBeforeResetting() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "resetpeerwait", SERVERS.echo().upstream());
    proxy.toxics().resetPeer("rp", ToxicDirection.UPSTREAM, 300);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(PING);
      Duration untilReset =
          timed(
              () ->
                  assertThatThrownBy(connection::readToEnd)
                      .isInstanceOf(SocketException.class)
                      .hasMessageContaining("Connection reset"));

      assertThat(untilReset).isGreaterThanOrEqualTo(Duration.ofMillis(250));
    }
  }

  @Test
  void limitData_downstream_cutsExactlyAtLimitThenCloses() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "limit", SERVERS.echo().upstream());
    proxy.toxics().limitData("ld", ToxicDirection.DOWNSTREAM, 10);
    byte[] payload = randomBytes(100);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      connection.write(payload);

      assertThat(connection.readToEnd()).isEqualTo(Arrays.copyOf(payload, 10));
    }
  }

  @Test
  void bandwidth_10KBps_paces3000BytesOverAbout300ms() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "bandwidth", SERVERS.echo().upstream());
    proxy.toxics().bandwidth("bw", ToxicDirection.DOWNSTREAM, 10);
    byte[] payload = randomBytes(3_000);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      byte[][] received = new byte[1][];
      Duration transfer = timed(() -> received[0] = connection.roundTrip(payload));

      assertThat(received[0]).isEqualTo(payload);
      assertThat(transfer)
          .isGreaterThanOrEqualTo(Duration.ofMillis(250))
          .isLessThan(Timing.generousUpperBound(Duration.ofMillis(300)));
    }
  }

  @Test
  void slicer_smallPiecesWithDelay_deliversAllBytesIntact() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "slicer", SERVERS.echo().upstream());
    proxy.toxics().slicer("sl", ToxicDirection.DOWNSTREAM, 64, 20).setSizeVariation(16);
    proxy.toxics().slicer("sl-up", ToxicDirection.UPSTREAM, 1_000, 0);
    byte[] payload = randomBytes(20_000);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertThat(connection.roundTrip(payload)).isEqualTo(payload);
    }
  }

  @Test
  void slowClose_downstream_delaysCloseAfterUpstreamEnds() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "slowclose", SERVERS.echo().upstream());
    proxy.toxics().slowClose("sc", ToxicDirection.DOWNSTREAM, 400);

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertThat(connection.roundTrip(PING)).isEqualTo(PING);
      Duration untilClosed =
          timed(
              () -> {
                connection.shutdownOutput();
                assertThat(connection.readToEnd()).isEmpty();
              });

      assertThat(untilClosed)
          .isGreaterThanOrEqualTo(Duration.ofMillis(400))
          .isLessThan(Timing.generousUpperBound(Duration.ofMillis(400)));
    }
  }

  @Test
  void disable_liveConnection_closesItAndRefusesNewOnesUntilEnabled() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "disable", SERVERS.echo().upstream());
    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertThat(connection.roundTrip(PING)).isEqualTo(PING);

      proxy.disable();

      assertClosedByPeer(connection);
      assertThatThrownBy(() -> SERVERS.target().connect(proxy))
          .hasRootCauseInstanceOf(ConnectException.class);
    }
    proxy.enable();
    try (TcpClient again = SERVERS.target().connect(proxy)) {
      assertThat(again.roundTrip(PING)).isEqualTo(PING);
    }
  }

  @Test
  void connect_upstreamRefuses_closesClientAtOnce() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "deadupstream", "127.0.0.1:1");

    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertClosedByPeer(connection);
    }
  }

  @Test
  void delete_liveConnection_closesItAndUpstreamSide() throws IOException {
    Proxy proxy = SERVERS.target().createProxy(client, "deletelive", SERVERS.echo().upstream());
    try (TcpClient connection = SERVERS.target().connect(proxy)) {
      assertThat(connection.roundTrip(PING)).isEqualTo(PING);
      int openBefore = SERVERS.echo().openConnections();

      proxy.delete();

      assertClosedByPeer(connection);
      await().atMost(Timing.AWAIT).until(() -> SERVERS.echo().openConnections() < openBefore);
    }
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** EOF or a reset both count: either way the proxy closed the client's socket. */
  private static void assertClosedByPeer(TcpClient connection) {
    try {
      connection.readToEnd();
    } catch (SocketException e) {
      assertThat(e).hasMessageContaining("Connection reset");
    } catch (IOException e) {
      throw new AssertionError("expected the proxy to close the connection", e);
    }
  }

  private static Duration timed(IoAction action) throws IOException {
    long start = System.nanoTime();
    action.run();
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }
}
