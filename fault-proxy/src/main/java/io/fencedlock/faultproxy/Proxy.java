package io.fencedlock.faultproxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One named proxy: its configuration, its listener while enabled, its live connections and its
 * toxics. Starting binds the listen address and replaces it with the bound one; stopping closes the
 * listener and every live connection at once.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class Proxy {

  private static final Logger log = LoggerFactory.getLogger(Proxy.class);

  private final IoLoop loop;
  private final String name;
  private final ToxicSet toxics = new ToxicSet();
  private final Set<Connection> connections = new LinkedHashSet<>();
  private String listen;
  private String upstream;
  private boolean enabled;
  private @Nullable Acceptor acceptor;
  private InetSocketAddress upstreamAddress = InetSocketAddress.createUnresolved("invalid", 0);

  Proxy(IoLoop loop, String name, String listen, String upstream) {
    this.loop = loop;
    this.name = name;
    this.listen = listen;
    this.upstream = upstream;
  }

  String name() {
    return name;
  }

  String listen() {
    return listen;
  }

  String upstream() {
    return upstream;
  }

  boolean enabled() {
    return enabled;
  }

  ProxyView view() {
    return new ProxyView(name, listen, upstream, enabled, toxics.all());
  }

  /**
   * Binds the listen address and starts accepting; does nothing if already started.
   *
   * @throws ApiException 500 if the address is invalid or cannot be bound
   */
  void start() {
    if (enabled) {
      return;
    }
    try {
      acceptor = Acceptor.open(loop, HostPort.parse(listen).resolve(), this::accept);
    } catch (IllegalArgumentException e) {
      throw ApiException.internal("listen tcp " + listen + ": " + e.getMessage());
    } catch (IOException e) {
      throw ApiException.internal("listen tcp " + listen + ": bind: " + describe(e));
    }
    listen = HostPort.format(acceptor.localAddress());
    upstreamAddress = resolveUpstream();
    enabled = true;
    log.info("proxy {} listening on {}, upstream {}", name, listen, upstream);
  }

  /** Closes the listener and every live connection; does nothing if already stopped. */
  void stop() {
    if (!enabled) {
      return;
    }
    enabled = false;
    acceptor.close();
    acceptor = null;
    new ArrayList<>(connections).forEach(Connection::closeNow);
    connections.clear();
    loop.flushCancelledKeys();
    log.info("proxy {} stopped", name);
  }

  /**
   * Applies an update whose absent fields were filled with the current values: a changed (resolved)
   * listen or upstream restarts the proxy; then {@code enabled} is applied.
   */
  void update(String newListen, String newUpstream, boolean newEnabled) {
    if (differs(newListen, newUpstream)) {
      stop();
      listen = newListen;
      upstream = newUpstream;
    }
    if (newEnabled && !enabled) {
      start();
    } else if (!newEnabled && enabled) {
      stop();
    }
  }

  List<ToxicConfig> toxics() {
    return toxics.all();
  }

  Optional<ToxicConfig> toxic(String toxicName) {
    return toxics.find(toxicName);
  }

  /** Adds a toxic and applies it to every live connection. */
  void addToxic(ToxicConfig toxic) {
    toxics.add(toxic);
    forEachLink(toxic.direction(), link -> link.addToxic(toxic));
  }

  /** Replaces a toxic's configuration and restarts it on every live connection. */
  void updateToxic(ToxicConfig toxic) {
    toxics.replace(toxic);
    forEachLink(toxic.direction(), link -> link.updateToxic(toxic));
  }

  /** Removes a toxic; removing a timeout closes the connections it was running on. */
  void removeToxic(ToxicConfig toxic) {
    toxics.remove(toxic);
    forEachLink(toxic.direction(), link -> link.removeToxic(toxic.name()));
  }

  private void accept(SocketChannel client) {
    Connection connection = new Connection(loop, client, toxics, connections::remove);
    connections.add(connection);
    connection.dial(upstreamAddress);
  }

  private void forEachLink(Direction direction, Consumer<ToxicLink> action) {
    for (Connection connection : new ArrayList<>(connections)) {
      ToxicLink link = connection.link(direction);
      if (link != null) {
        action.accept(link);
      }
    }
  }

  private boolean differs(String newListen, String newUpstream) {
    String resolved;
    try {
      resolved = HostPort.canonical(newListen);
    } catch (IllegalArgumentException e) {
      throw ApiException.internal(e.getMessage());
    }
    return !listen.equals(resolved) || !upstream.equals(newUpstream);
  }

  /** Resolved once per start; an unusable upstream makes every client close at once, as in Go. */
  private InetSocketAddress resolveUpstream() {
    try {
      return HostPort.parse(upstream).resolve();
    } catch (IllegalArgumentException e) {
      log.warn(
          "proxy {}: upstream {} is unusable ({}); clients will be closed",
          name,
          upstream,
          e.getMessage());
      return InetSocketAddress.createUnresolved(upstream, 0);
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.toLowerCase(Locale.ROOT);
  }
}
