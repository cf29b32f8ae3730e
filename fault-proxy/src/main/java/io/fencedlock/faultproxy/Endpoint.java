package io.fencedlock.faultproxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One socket of a proxied connection (the client's or the upstream's). It is the source of one link
 * and the destination of the other, so its single selection key dispatches readability to the
 * reading link and writability to the other link's {@link OutboundQueue}.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class Endpoint implements IoHandler {

  private static final Logger log = LoggerFactory.getLogger(Endpoint.class);

  private final SocketChannel channel;
  private final SelectionKey key;
  private final Runnable onFailure;
  private @Nullable ToxicLink reader;
  private @Nullable OutboundQueue writer;
  private @Nullable Runnable onConnectable;
  private int interestOps;
  private boolean closed;

  /**
   * Registers a non-blocking socket with no interest yet.
   *
   * @param onFailure closes the whole connection when a handler fails unexpectedly
   */
  Endpoint(IoLoop loop, SocketChannel channel, Runnable onFailure) throws IOException {
    try {
      channel.configureBlocking(false);
      // Go sets TCP_NODELAY on every TCP connection; without it Nagle would skew latency.
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    this.channel = channel;
    this.onFailure = onFailure;
    this.key = loop.register(channel, 0, this);
  }

  /** Connects the links once the connection is established. */
  void bind(ToxicLink reader, OutboundQueue writer) {
    this.reader = reader;
    this.writer = writer;
  }

  /** Starts a non-blocking connect; true if it completed at once. */
  boolean connect(InetSocketAddress address) throws IOException {
    return channel.connect(address);
  }

  /** Calls {@code onConnectable} when a pending non-blocking connect can be finished. */
  void awaitConnect(Runnable onConnectable) {
    this.onConnectable = onConnectable;
    setInterest(SelectionKey.OP_CONNECT, true);
  }

  boolean finishConnect() throws IOException {
    return channel.finishConnect();
  }

  @Override
  public void onReady() {
    // Each step re-checks the key: a callback may have closed this socket.
    if (key.isValid() && key.isConnectable() && onConnectable != null) {
      setInterest(SelectionKey.OP_CONNECT, false);
      onConnectable.run();
      return;
    }
    if (key.isValid() && key.isWritable() && writer != null) {
      writer.onWritable();
    }
    if (key.isValid() && key.isReadable() && reader != null) {
      reader.onReadable();
    }
  }

  @Override
  public void onFailure(RuntimeException failure) {
    onFailure.run();
  }

  void setReadInterest(boolean wanted) {
    setInterest(SelectionKey.OP_READ, wanted);
  }

  void setWriteInterest(boolean wanted) {
    setInterest(SelectionKey.OP_WRITE, wanted);
  }

  int read(ByteBuffer buffer) throws IOException {
    return channel.read(buffer);
  }

  int write(ByteBuffer buffer) throws IOException {
    return channel.write(buffer);
  }

  /** Makes the eventual close send RST instead of FIN (SO_LINGER=0), for reset_peer. */
  void resetOnClose() {
    try {
      channel.setOption(StandardSocketOptions.SO_LINGER, 0);
    } catch (IOException e) {
      log.debug("cannot set SO_LINGER=0; this socket will close with a FIN", e);
    }
  }

  boolean isClosed() {
    return closed;
  }

  /** Closes the socket; idempotent. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    key.cancel();
    try {
      channel.close();
    } catch (IOException e) {
      log.debug("closing a proxied socket failed; it is released either way", e);
    }
  }

  private void setInterest(int op, boolean wanted) {
    if (closed || !key.isValid()) {
      return;
    }
    int ops = wanted ? interestOps | op : interestOps & ~op;
    if (ops != interestOps) {
      interestOps = ops;
      key.interestOps(ops);
    }
  }
}
