package io.fencedlock.faultproxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One accepted client and its upstream socket, joined by two {@link ToxicLink}s: upstream
 * (client→server) and downstream (server→client).
 *
 * <p>Lifecycle: dial the upstream without blocking; if that fails close the client at once. When
 * one link ends it closes its destination, and the other link then sees its source end, so the
 * connection closes as a whole, as in Toxiproxy. Stopping the proxy closes both sockets
 * immediately.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class Connection {

  private static final Logger log = LoggerFactory.getLogger(Connection.class);

  private enum State {
    DIALING,
    OPEN,
    CLOSED
  }

  private final IoLoop loop;
  private final ToxicSet toxics;
  private final Consumer<Connection> onClosed;
  private final SocketChannel clientChannel;
  private @Nullable Endpoint client;
  private @Nullable Endpoint upstream;
  private @Nullable ToxicLink upLink;
  private @Nullable ToxicLink downLink;
  private State state = State.DIALING;

  /**
   * @param toxics read once the upstream answers, to build the links' chains
   * @param onClosed told once when the connection is fully closed
   */
  Connection(
      IoLoop loop, SocketChannel clientChannel, ToxicSet toxics, Consumer<Connection> onClosed) {
    this.loop = loop;
    this.clientChannel = clientChannel;
    this.toxics = toxics;
    this.onClosed = onClosed;
  }

  /** Starts dialing {@code upstreamAddress}; the client is not read until that succeeds. */
  void dial(InetSocketAddress upstreamAddress) {
    try {
      client = new Endpoint(loop, clientChannel, this::closeNow);
      upstream = new Endpoint(loop, SocketChannel.open(), this::closeNow);
      if (upstream.connect(upstreamAddress)) {
        establish();
      } else {
        upstream.awaitConnect(this::finishDial);
      }
    } catch (IOException | UnresolvedAddressException | UnsupportedAddressTypeException e) {
      log.debug("cannot dial upstream {}; closing the client", upstreamAddress, e);
      closeNow();
    }
  }

  /** The live link for {@code direction}, or null while dialing or after closing. */
  @Nullable ToxicLink link(Direction direction) {
    if (state != State.OPEN) {
      return null;
    }
    return direction == Direction.UPSTREAM ? upLink : downLink;
  }

  /** Closes both sockets at once, as stopping a proxy does. Idempotent. */
  void closeNow() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    closeLinks();
    closeEndpoint(client);
    closeEndpoint(upstream);
    try {
      clientChannel.close();
    } catch (IOException e) {
      log.debug("closing a client socket failed; it is released either way", e);
    }
    onClosed.accept(this);
  }

  private void finishDial() {
    try {
      if (upstream.finishConnect()) {
        establish();
      } else {
        upstream.awaitConnect(this::finishDial); // spurious wake-up: keep waiting
      }
    } catch (IOException e) {
      log.debug("upstream refused or unreachable; closing the client", e);
      closeNow();
    }
  }

  private void establish() {
    if (state != State.DIALING) {
      return;
    }
    // SO_LINGER=0 on a link's source is what turns reset_peer's close into an RST.
    if (toxics.contains(Direction.UPSTREAM, ToxicType.RESET_PEER)) {
      client.resetOnClose();
    }
    if (toxics.contains(Direction.DOWNSTREAM, ToxicType.RESET_PEER)) {
      upstream.resetOnClose();
    }
    upLink =
        new ToxicLink(
            loop,
            client,
            upstream,
            toxics.chain(Direction.UPSTREAM),
            () -> closeSocket(upstream),
            this::closeNow);
    downLink =
        new ToxicLink(
            loop,
            upstream,
            client,
            toxics.chain(Direction.DOWNSTREAM),
            () -> closeSocket(client),
            this::closeNow);
    client.bind(upLink, downLink.outbound());
    upstream.bind(downLink, upLink.outbound());
    state = State.OPEN;
    client.setReadInterest(true);
    upstream.setReadInterest(true);
  }

  /** A link ended or could not write: close its destination, then let the other link end. */
  private void closeSocket(Endpoint endpoint) {
    if (state != State.OPEN || endpoint.isClosed()) {
      return;
    }
    endpoint.close();
    ToxicLink writer = endpoint == client ? downLink : upLink;
    ToxicLink reader = endpoint == client ? upLink : downLink;
    writer.destinationClosed();
    // Deferred, so a close never re-enters a toxic chain from inside that chain's own emit.
    loop.execute(
        () -> {
          if (state != State.OPEN) {
            return;
          }
          reader.sourceClosed();
          if (client.isClosed() && upstream.isClosed()) {
            finish();
          }
        });
  }

  private void finish() {
    state = State.CLOSED;
    closeLinks();
    onClosed.accept(this);
  }

  private void closeLinks() {
    if (upLink != null) {
      upLink.close();
    }
    if (downLink != null) {
      downLink.close();
    }
  }

  private static void closeEndpoint(@Nullable Endpoint endpoint) {
    if (endpoint != null) {
      endpoint.close();
    }
  }
}
