package io.fencedlock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * floor-raw's connections, one per node, and the one I/O thread that reads them all: a {@link
 * Selector} that only ever waits for replies. Writes are not queued to this thread: callers write
 * to the sockets themselves, so a fan-out costs the caller five {@code write} calls and the I/O
 * thread one wake-up per batch of replies (a reply handler may write too, as floor-raw-handoff's
 * two-step handoff does). Thread-safe.
 */
final class RawNodes implements AutoCloseable {
  private final Selector selector;
  private final List<RawConnection> connections = new ArrayList<>();
  private final Thread ioThread;

  /** Made once: a method reference per select would be an allocation per wake-up. */
  private final java.util.function.Consumer<SelectionKey> onReady = this::onReady;

  private volatile boolean closed;

  private RawNodes(Selector selector, String threadName) {
    this.selector = selector;
    this.ioThread = new Thread(this::run, threadName);
    this.ioThread.setDaemon(true);
  }

  /**
   * Connects to every {@code redis://host:port} URI and starts the I/O thread.
   *
   * @throws UncheckedIOException if a node cannot be reached
   */
  static RawNodes connect(List<String> uris, String threadName) {
    RawNodes nodes;
    try {
      nodes = new RawNodes(Selector.open(), threadName);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a selector", e);
    }
    try {
      for (String uri : uris) {
        URI parsed = URI.create(uri);
        RawConnection connection =
            RawConnection.open(
                parsed.getHost() + ":" + parsed.getPort(),
                new InetSocketAddress(parsed.getHost(), parsed.getPort()),
                nodes.selector::wakeup);
        nodes.connections.add(connection);
        connection.channel().register(nodes.selector, SelectionKey.OP_READ, connection);
      }
    } catch (IOException e) {
      nodes.close();
      throw new UncheckedIOException("cannot connect to " + uris, e);
    } catch (RuntimeException e) {
      nodes.close();
      throw e;
    }
    nodes.ioThread.start();
    return nodes;
  }

  int size() {
    return connections.size();
  }

  RawConnection node(int index) {
    return connections.get(index);
  }

  /** Sends {@code command} to every node, each reply going to {@code handler}. */
  void sendToAll(ByteBuffer command, ReplyHandler handler) {
    for (int i = 0; i < connections.size(); i++) {
      connections.get(i).send(command, handler);
    }
  }

  private void run() {
    try {
      while (!closed) {
        selector.select(onReady);
        for (int i = 0; i < connections.size(); i++) {
          connections.get(i).drainIfFailed();
        }
      }
    } catch (IOException | ClosedSelectorException e) {
      connections.forEach(c -> c.fail("the I/O thread stopped: " + e));
    } finally {
      connections.forEach(RawConnection::drainIfFailed);
    }
  }

  private void onReady(SelectionKey key) {
    if (key.isValid() && key.isReadable()) {
      ((RawConnection) key.attachment()).onReadable();
    }
  }

  /** Stops the I/O thread and closes the connections; waiting callers get error replies. */
  @Override
  public void close() {
    closed = true;
    connections.forEach(c -> c.fail("closed"));
    selector.wakeup();
    if (ioThread.isAlive()) {
      try {
        ioThread.join(TimeUnit.SECONDS.toMillis(2));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (!ioThread.isAlive()) {
      connections.forEach(
          RawConnection::drainIfFailed); // the thread never started: nobody else will
    }
    try {
      selector.close();
    } catch (IOException e) {
      // Nothing is left to read from it; a failed close loses nothing.
    }
  }
}
