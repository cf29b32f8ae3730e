package io.fencedlock.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.jspecify.annotations.Nullable;

/**
 * One non-blocking connection of floor-raw to one node. Caller threads write their commands
 * straight to the socket ({@link #send}); the I/O thread of {@link RawNodes} reads the replies
 * ({@link #onReadable}) and hands each to the oldest pending handler. Commands from many callers
 * are pipelined: a lock keeps each command's bytes together and its handler at the same place in
 * the FIFO as its bytes on the wire. Thread-safe.
 */
final class RawConnection {
  /** Pending replies per connection; 32 clients with a few stragglers each stay far below it. */
  static final int MAX_PENDING = 4096;

  private static final int READ_BUFFER = 64 * 1024;

  private final String name;
  private final SocketChannel channel;
  private final Runnable wakeIoThread;
  private final Object writeLock = new Object();
  private final PendingReplies pending = new PendingReplies(MAX_PENDING);
  private final ByteBuffer in = ByteBuffer.allocateDirect(READ_BUFFER);
  private final ReplyHandler dispatcher = this::dispatch;

  /** Why the connection failed, once it has; from then on every command fails at once. */
  private volatile @Nullable String failure;

  private RawConnection(String name, SocketChannel channel, Runnable wakeIoThread) {
    this.name = name;
    this.channel = channel;
    this.wakeIoThread = wakeIoThread;
  }

  /** Connects (blocking), then switches to non-blocking for the I/O thread's selector. */
  static RawConnection open(String name, InetSocketAddress address, Runnable wakeIoThread)
      throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.socket().connect(address, (int) BenchTiming.COMMAND_TIMEOUT.toMillis());
      channel.configureBlocking(false);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new RawConnection(name, channel, wakeIoThread);
  }

  SocketChannel channel() {
    return channel;
  }

  /**
   * Writes all of {@code command} (from 0 to its limit) and queues {@code handler} for its reply.
   * If the command cannot be sent, the handler gets an error reply, at once on this thread or from
   * the I/O thread once it has noticed the failure.
   */
  void send(ByteBuffer command, ReplyHandler handler) {
    String notQueued;
    synchronized (writeLock) {
      notQueued = failure != null ? failure : queueAndWrite(command, handler);
    }
    if (notQueued != null) {
      handler.onReply(ReplyKind.ERROR, 0, notQueued);
    } else if (failure != null) {
      // The connection failed around the time the handler was queued, perhaps after the I/O
      // thread answered what was pending: make it look again, so this handler is answered too.
      wakeIoThread.run();
    }
  }

  /**
   * Under the write lock: queues the handler first, since its reply can come as soon as the bytes
   * are out, then writes. Returns why the handler was not queued, or null if it was (a failed write
   * then leaves it to the I/O thread to answer).
   */
  private @Nullable String queueAndWrite(ByteBuffer command, ReplyHandler handler) {
    long waitingSince =
        0; // read from the clock only once a wait starts: the usual send never waits
    while (!pending.offer(handler)) {
      String failed = failure;
      if (failed != null) {
        return failed;
      }
      waitingSince = waitingSince == 0 ? System.nanoTime() : waitingSince;
      if (System.nanoTime() - waitingSince > BenchTiming.COMMAND_TIMEOUT.toNanos()) {
        return "connection to " + name + ": " + MAX_PENDING + " replies outstanding";
      }
      Thread.onSpinWait(); // the I/O thread frees a slot with every reply it reads
    }
    command.rewind();
    waitingSince = 0;
    try {
      while (command.hasRemaining()) {
        if (channel.write(command) > 0) {
          continue;
        }
        waitingSince = waitingSince == 0 ? System.nanoTime() : waitingSince;
        if (System.nanoTime() - waitingSince > BenchTiming.COMMAND_TIMEOUT.toNanos()) {
          fail(
              "the node has not read its socket for "
                  + BenchTiming.COMMAND_TIMEOUT.toMillis()
                  + " ms");
          return null;
        }
        Thread.onSpinWait(); // the socket's send buffer is full until the node reads
      }
    } catch (IOException e) {
      fail("write failed: " + e.getMessage());
    }
    return null;
  }

  /** Reads what the node sent and hands every complete reply to its handler. I/O thread only. */
  void onReadable() {
    try {
      if (channel.read(in) < 0) {
        fail("closed by the node");
        return;
      }
      in.flip();
      RespReplyParser.parse(in, dispatcher);
      in.compact();
    } catch (IOException e) {
      fail("read failed: " + e.getMessage());
    } catch (RespProtocolException e) {
      fail(e.getMessage());
    }
  }

  private void dispatch(ReplyKind kind, long integer, @Nullable String error) {
    ReplyHandler handler = pending.poll();
    if (handler == null) {
      throw new RespProtocolException("a reply to no command");
    }
    handler.onReply(kind, integer, error);
  }

  /** Marks the connection failed and closes it; the I/O thread then answers what is pending. */
  void fail(String why) {
    if (failure == null) {
      failure = "connection to " + name + " failed: " + why;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Closing is best effort: the connection is already given up.
    }
    wakeIoThread.run();
  }

  /** Answers every pending handler of a failed connection with an error. I/O thread only. */
  void drainIfFailed() {
    String failed = failure;
    if (failed == null) {
      return;
    }
    ReplyHandler handler;
    while ((handler = pending.poll()) != null) {
      handler.onReply(ReplyKind.ERROR, 0, failed);
    }
  }

  /** For tests and diagnostics: replies still expected. */
  int pendingReplies() {
    return pending.size();
  }
}
