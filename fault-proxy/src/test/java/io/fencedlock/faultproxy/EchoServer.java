package io.fencedlock.faultproxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP echo server (on loopback unless told otherwise) on one NIO thread (so it adds no threads
 * per connection, which the thread-count test relies on). Closes a connection when the peer does.
 *
 * <p>Thread-safe: the counters may be read from any thread.
 */
final class EchoServer implements AutoCloseable {

  private final ServerSocketChannel server;
  private final Selector selector;
  private final Thread thread;
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private volatile boolean running = true;

  private EchoServer(InetAddress address) throws IOException {
    server = ServerSocketChannel.open();
    server.bind(new InetSocketAddress(address, 0));
    server.configureBlocking(false);
    selector = Selector.open();
    server.register(selector, SelectionKey.OP_ACCEPT);
    thread = new Thread(this::run, "echo-server");
    thread.setDaemon(true);
    thread.start();
  }

  /** An echo server on loopback. */
  static EchoServer start() {
    return start(InetAddress.getLoopbackAddress());
  }

  /**
   * An echo server on {@code address} (for a proxy in a container: this machine's address on its
   * bridge).
   */
  static EchoServer start(InetAddress address) {
    try {
      return new EchoServer(address);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int port() {
    return server.socket().getLocalPort();
  }

  /** The {@code upstream} value for a proxy in front of this server. */
  String upstream() {
    return server.socket().getInetAddress().getHostAddress() + ":" + port();
  }

  int acceptedConnections() {
    return accepted.get();
  }

  int openConnections() {
    return open.get();
  }

  @Override
  public void close() throws IOException {
    running = false;
    selector.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.close();
  }

  private void run() {
    try {
      while (running) {
        selector.select();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          handle(key);
        }
      }
      for (SelectionKey key : selector.keys()) {
        key.channel().close();
      }
      selector.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void handle(SelectionKey key) throws IOException {
    if (!key.isValid()) {
      return;
    }
    if (key.isAcceptable()) {
      SocketChannel client = server.accept();
      if (client != null) {
        client.configureBlocking(false);
        client.register(selector, SelectionKey.OP_READ, new ArrayDeque<ByteBuffer>());
        accepted.incrementAndGet();
        open.incrementAndGet();
      }
      return;
    }
    echo(key);
  }

  @SuppressWarnings("unchecked")
  private void echo(SelectionKey key) throws IOException {
    SocketChannel channel = (SocketChannel) key.channel();
    ArrayDeque<ByteBuffer> pending = (ArrayDeque<ByteBuffer>) key.attachment();
    if (key.isReadable()) {
      ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
      int read;
      try {
        read = channel.read(buffer);
      } catch (IOException e) {
        read = -1; // a reset peer is just a closed peer for an echo server
      }
      if (read < 0) {
        key.cancel();
        channel.close();
        open.decrementAndGet();
        return;
      }
      pending.add(buffer.flip());
    }
    writePending(key, channel, pending);
  }

  private void writePending(
      SelectionKey key, SocketChannel channel, ArrayDeque<ByteBuffer> pending) {
    try {
      while (!pending.isEmpty()) {
        channel.write(pending.peek());
        if (pending.peek().hasRemaining()) {
          key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
          return;
        }
        pending.poll();
      }
      key.interestOps(SelectionKey.OP_READ);
    } catch (IOException e) {
      // The peer is gone; drop its data and its socket.
      key.cancel();
      closeQuietly(channel);
      open.decrementAndGet();
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // already failing; the channel is released either way
    }
  }
}
