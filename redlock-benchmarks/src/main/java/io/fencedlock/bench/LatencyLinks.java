package io.fencedlock.bench;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.fencedlock.chaos.proxy.FaultProxyServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault proxy in front of every node, adding latency with jitter to each link, for
 * scenario 4. The toxic sits on the downstream direction (node → client), so every round
 * trip gets one delay. Closes the proxy server.
 */
final class LatencyLinks implements AutoCloseable {
  private final FaultProxyServer server;
  private final List<String> uris = new ArrayList<>();

  private LatencyLinks(FaultProxyServer server) {
    this.server = server;
  }

  /** Proxies each {@code host:port} of {@code upstreams} with {@code latencyMs ± jitterMs}. */
  static LatencyLinks start(List<String> upstreamUris, long latencyMs, long jitterMs) {
    LatencyLinks links = new LatencyLinks(FaultProxyServer.start(new InetSocketAddress("127.0.0.1", 0)));
    try {
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", links.server.port());
      for (int i = 0; i < upstreamUris.size(); i++) {
        String upstream = upstreamUris.get(i).replace("redis://", "");
        Proxy proxy = client.createProxy("node" + i, "127.0.0.1:0", upstream);
        proxy.toxics().latency("latency", ToxicDirection.DOWNSTREAM, latencyMs).setJitter(jitterMs);
        links.uris.add("redis://" + proxy.getListen());
      }
    } catch (IOException e) {
      links.close();
      throw new UncheckedIOException("could not configure the fault proxy", e);
    }
    return links;
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
