package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import io.fencedlock.testkit.support.RawHttp;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * This proxy's own extensions to the latency toxic ({@code latency_us}, {@code jitter_us}). Always
 * against the in-process server: a real Toxiproxy accepts the attributes but ignores them.
 */
final class LatencyExtensionIT {

  private static EchoServer echo;
  private static FaultProxyServer server;
  private static ToxiproxyClient client;
  private static RawHttp http;

  @BeforeAll
  static void start() {
    echo = EchoServer.start();
    server = FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0), 11L);
    client = new ToxiproxyClient("127.0.0.1", server.port());
    http = new RawHttp(server.url());
  }

  @AfterAll
  static void stop() throws IOException {
    server.close();
    echo.close();
  }

  @Test
  void createLatency_withoutExtensions_echoesExactlyToxiproxysAttributes() throws IOException {
    Proxy proxy = client.createProxy("plain", "127.0.0.1:0", echo.upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 5).setJitter(1);

    JsonObject attributes = attributesOf("plain", "lat");

    assertThat(attributes.keySet()).containsExactly("latency", "jitter");
    proxy.delete();
  }

  @Test
  void updateLatency_withJitterMicros_mergesAndEchoesIt() throws IOException {
    Proxy proxy = client.createProxy("jittery", "127.0.0.1:0", echo.upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 1);

    RawHttp.Response response =
        http.post("/proxies/jittery/toxics/lat", "{\"attributes\":{\"jitter_us\":200}}");

    assertThat(response.status()).isEqualTo(200);
    JsonObject attributes = json(response).getAsJsonObject().getAsJsonObject("attributes");
    assertThat(attributes.get("latency").getAsLong()).isEqualTo(1);
    assertThat(attributes.get("jitter").getAsLong()).isZero();
    assertThat(attributes.get("jitter_us").getAsLong()).isEqualTo(200);
    assertThat(attributes.has("latency_us")).isFalse();
    // The official client still reads the toxic; it simply does not see the extension.
    Latency read = proxy.toxics().get("lat", Latency.class);
    assertThat(read.getLatency()).isEqualTo(1);
    proxy.delete();
  }

  @Test
  void updateLatency_extensionBackToZero_isNoLongerEchoed() throws IOException {
    Proxy proxy = client.createProxy("reset-ext", "127.0.0.1:0", echo.upstream());
    proxy.toxics().latency("lat", ToxicDirection.DOWNSTREAM, 1);
    http.post("/proxies/reset-ext/toxics/lat", "{\"attributes\":{\"latency_us\":500}}");

    http.post("/proxies/reset-ext/toxics/lat", "{\"attributes\":{\"latency_us\":0}}");

    assertThat(attributesOf("reset-ext", "lat").keySet()).containsExactly("latency", "jitter");
    proxy.delete();
  }

  @Test
  void createLatency_withFractionalMicros_isRejectedLikeAnyNonIntegerAttribute()
      throws IOException {
    Proxy proxy = client.createProxy("bad-ext", "127.0.0.1:0", echo.upstream());

    RawHttp.Response response = addLatency(proxy, "{\"latency\":1,\"jitter_us\":0.5}");

    assertThat(response.status()).isEqualTo(400);
    assertThat(json(response).getAsJsonObject().get("error").getAsString()).contains("jitter_us");
    assertThat(proxy.toxics().getAll()).isEmpty();
    proxy.delete();
  }

  @Test
  void roundTrip_withLatencyMicros_isDelayedByThemAndNeverEarly() throws IOException {
    // How close to the deadline chunks leave is SelectorAlarmTest's (the mechanism) and a
    // measurement's (docs/analysis.md, section 10), not a timed assertion here.
    Proxy proxy = client.createProxy("fine", "127.0.0.1:0", echo.upstream());
    assertThat(addLatency(proxy, "{\"latency_us\":300}").status()).isEqualTo(200);

    try (TcpClient connection = ToxiproxyTarget.connectOnLoopback(proxy)) {
      for (int i = 0; i < 20; i++) {
        long start = System.nanoTime();
        assertThat(connection.roundTrip(new byte[] {(byte) i})).containsExactly(i);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(300_000L);
      }
    }
    proxy.delete();
  }

  /** Adds a downstream latency toxic named "lat" with {@code attributes}, over plain HTTP. */
  private static RawHttp.Response addLatency(Proxy proxy, String attributes) {
    return http.post(
        "/proxies/" + proxy.getName() + "/toxics",
        "{\"name\":\"lat\",\"type\":\"latency\",\"stream\":\"downstream\",\"attributes\":"
            + attributes
            + "}");
  }

  private static JsonObject attributesOf(String proxy, String toxic) {
    return json(http.get("/proxies/" + proxy + "/toxics/" + toxic))
        .getAsJsonObject()
        .getAsJsonObject("attributes");
  }

  private static JsonElement json(RawHttp.Response response) {
    return JsonParser.parseString(response.bodyText());
  }
}
