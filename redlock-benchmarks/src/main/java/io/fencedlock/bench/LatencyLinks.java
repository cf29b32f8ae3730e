package io.fencedlock.bench;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.faultproxy.FaultProxyServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault proxy in front of every node, adding latency with jitter to each link, for scenario 4.
 * The toxic sits on the downstream direction (node → client), so every round trip gets one delay.
 * Toxiproxy's attributes are whole milliseconds; the rest is set through the fault proxy's {@code
 * latency_us} and {@code jitter_us} extensions, which toxiproxy-java cannot send, so they go as a
 * plain toxic update. Closes the proxy server.
 */
final class LatencyLinks implements AutoCloseable {
  private final FaultProxyServer server;
  private final List<String> uris = new ArrayList<>();

  private LatencyLinks(FaultProxyServer server) {
    this.server = server;
  }

  /**
   * Proxies each {@code host:port} of {@code upstreams} with {@code latencyMicros ± jitterMicros}.
   */
  static LatencyLinks start(List<String> upstreamUris, long latencyMicros, long jitterMicros) {
    LatencyLinks links =
        new LatencyLinks(FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0)));
    try {
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", links.server.port());
      for (int i = 0; i < upstreamUris.size(); i++) {
        String upstream = upstreamUris.get(i).replace("redis://", "");
        Proxy proxy = client.createProxy("node" + i, "127.0.0.1:0", upstream);
        proxy
            .toxics()
            .latency("latency", ToxicDirection.DOWNSTREAM, latencyMicros / 1000)
            .setJitter(jitterMicros / 1000);
        links.setMicros(proxy.getName(), "latency", latencyMicros % 1000, jitterMicros % 1000);
        links.uris.add("redis://" + proxy.getListen());
      }
    } catch (IOException e) {
      links.close();
      throw new UncheckedIOException("could not configure the fault proxy", e);
    }
    return links;
  }

  /** Sets the sub-millisecond parts of a latency toxic through the extension attributes. */
  private void setMicros(String proxy, String toxic, long latencyMicros, long jitterMicros)
      throws IOException {
    String path = "/proxies/" + proxy + "/toxics/" + toxic;
    byte[] body =
        ("{\"attributes\":{\"latency_us\":"
                + latencyMicros
                + ",\"jitter_us\":"
                + jitterMicros
                + "}}")
            .getBytes(StandardCharsets.UTF_8);
    HttpURLConnection http =
        (HttpURLConnection) URI.create(server.url() + path).toURL().openConnection();
    try {
      http.setRequestMethod("POST");
      http.setDoOutput(true);
      try (OutputStream out = http.getOutputStream()) {
        out.write(body);
      }
      if (http.getResponseCode() != 200) {
        throw new IOException("POST " + path + " answered " + http.getResponseCode());
      }
    } finally {
      http.disconnect();
    }
  }

  /** The proxied node URIs, in the order of the upstreams. */
  List<String> uris() {
    return List.copyOf(uris);
  }

  @Override
  public void close() {
    server.close();
  }
}
