package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The in-process API of {@link FaultProxyServer}: addresses, seeding and shutdown. */
final class FaultProxyServerIT {

  private static final int DRAWS = 24;

  private static EchoServer echo;

  @BeforeAll
  static void startEcho() {
    echo = EchoServer.start();
  }

  @AfterAll
  static void stopEcho() throws IOException {
    echo.close();
  }

  @Test
  void start_loopbackPortZero_reportsUrlAndBoundPort() {
    try (FaultProxyServer server =
        FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0), 7L)) {
      assertThat(server.port()).isPositive();
      assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port());
      assertThat(server.seed()).isEqualTo(7L);
    }
  }

  @Test
  void close_withLiveProxyAndConnection_closesEverythingAndIsIdempotent() throws IOException {
    FaultProxyServer server = FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0));
    Proxy proxy =
        new ToxiproxyClient("127.0.0.1", server.port())
            .createProxy("closing", "127.0.0.1:0", echo.upstream());
    TcpClient connection = ToxiproxyTarget.connectOnLoopback(proxy);
    assertThat(connection.roundTrip(new byte[] {9})).containsExactly(9);

    server.close();
    server.close();

    assertThat(connection.readWithin(Timing.AWAIT)).isNull();
    connection.close();
    assertThatThrownBy(() -> ToxiproxyTarget.connectOnLoopback(proxy))
        .hasRootCauseInstanceOf(ConnectException.class);
    assertThatThrownBy(() -> TcpClient.connect("127.0.0.1", server.port()))
        .hasRootCauseInstanceOf(ConnectException.class);
  }

  @Test
  void seed_sameSeed_reproducesToxicityDraws() throws IOException {
    List<Boolean> first = toxicityOutcomes(1234L);
    List<Boolean> second = toxicityOutcomes(1234L);

    assertThat(second).isEqualTo(first);
    assertThat(first).contains(true, false); // toxicity 0.5 over 24 draws: both outcomes occur
  }

  /**
   * With a limit_data of 0 bytes at toxicity 0.5, each connection either echoes (the toxic did not
   * run) or is closed on the first chunk (it ran): an outcome without timing.
   */
  private static List<Boolean> toxicityOutcomes(long seed) throws IOException {
    try (FaultProxyServer server =
        FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0), seed)) {
      Proxy proxy =
          new ToxiproxyClient("127.0.0.1", server.port())
              .createProxy("coin", "127.0.0.1:0", echo.upstream());
      proxy.toxics().limitData("cut", ToxicDirection.DOWNSTREAM, 0).setToxicity(0.5f);
      List<Boolean> ran = new ArrayList<>();
      for (int i = 0; i < DRAWS; i++) {
        try (TcpClient connection = ToxiproxyTarget.connectOnLoopback(proxy)) {
          connection.write(new byte[] {1});
          ran.add(closedWithoutData(connection));
        }
      }
      return ran;
    }
  }

  private static boolean closedWithoutData(TcpClient connection) throws IOException {
    try {
      return connection.readWithin(Timing.AWAIT) == null;
    } catch (SocketException e) {
      return true; // closed with unread data in flight: still "the toxic ran"
    }
  }
}
