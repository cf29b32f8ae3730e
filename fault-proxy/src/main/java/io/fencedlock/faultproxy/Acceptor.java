package io.fencedlock.faultproxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A proxy's listening socket: accepts clients and hands them to the proxy.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class Acceptor implements IoHandler {

  private static final Logger log = LoggerFactory.getLogger(Acceptor.class);
  private static final int BACKLOG = 512;

  /** Bounds the work of one readiness event so one busy listener cannot starve the others. */
  private static final int MAX_ACCEPTS_PER_EVENT = 64;

  private final IoLoop loop;
  private final ServerSocketChannel server;
  private final Consumer<SocketChannel> onAccept;
  private final SelectionKey key;

  private Acceptor(IoLoop loop, ServerSocketChannel server, Consumer<SocketChannel> onAccept) {
    this.loop = loop;
    this.server = server;
    this.onAccept = onAccept;
    this.key = loop.register(server, SelectionKey.OP_ACCEPT, this);
  }

  /**
   * Binds and starts accepting.
   *
   * @throws IOException if the address cannot be bound
   */
  static Acceptor open(IoLoop loop, InetSocketAddress address, Consumer<SocketChannel> onAccept)
      throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open();
    try {
      // As Go does on Unix: re-enabling a proxy must rebind its port despite TIME_WAIT.
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(address, BACKLOG);
      server.configureBlocking(false);
      return new Acceptor(loop, server, onAccept);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  InetSocketAddress localAddress() {
    try {
      return (InetSocketAddress) server.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("listener has no local address", e);
    }
  }

  @Override
  public void onReady() {
    for (int i = 0; i < MAX_ACCEPTS_PER_EVENT; i++) {
      SocketChannel client;
      try {
        client = server.accept();
      } catch (IOException e) {
        // Typically EMFILE or a client gone before accept; the listener itself is fine.
        log.warn("accept failed on {}", server, e);
        return;
      }
      if (client == null) {
        return;
      }
      onAccept.accept(client);
    }
  }

  @Override
  public void onFailure(RuntimeException failure) {
    // The failure was in setting up one client; keep listening for the next.
  }

  /** Stops listening; new connects are refused as soon as this returns. */
  void close() {
    key.cancel();
    try {
      server.close();
    } catch (IOException e) {
      log.debug("closing a listener failed; it is released either way", e);
    }
    loop.flushCancelledKeys();
  }
}
