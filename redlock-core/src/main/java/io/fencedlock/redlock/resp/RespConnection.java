package io.fencedlock.redlock.resp;

import io.fencedlock.redlock.spi.NodeFailures;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one node, RESP by hand: callers encode their command, then write it to the
 * socket themselves, under this connection's lock, which also appends the command's {@link Call} to
 * a FIFO of pending replies in the same order as its bytes on the wire. The {@link IoLoop}'s thread
 * reads and parses the replies and hands each to the oldest pending call, on that thread.
 *
 * <p>The {@link io.fencedlock.redlock.spi.NodeDriver} contract, as this class keeps it:
 *
 * <ul>
 *   <li>One socket at a time, so a node runs requests in the order they were sent. A request is
 *       written once, never re-sent: when the socket breaks, every pending call fails.
 *   <li>Requests are never queued for a connection that is not ready: they fail at once ("not
 *       connected"), and start a connect attempt if none is under way. A release must never wait
 *       behind a connect and then overtake nothing it should follow.
 *   <li>After a loss or a failed attempt, the connection retries in the background (10 ms, doubling
 *       to 1 s), so a node that comes back is used again without a request having to fail first.
 *   <li>A connection is ready once it has logged in ({@code AUTH}, {@code SELECT}) and run the
 *       handshake commands given (script loads, whose errors are reported but do not fail the
 *       attempt), all within the connect timeout.
 * </ul>
 *
 * Thread-safe.
 */
final class RespConnection implements IoLoop.Expiring {
  private static final Logger log = LoggerFactory.getLogger(RespConnection.class);

  /**
   * The receiver of one reply: called once, with the reply or a failure (a call that sends itself
   * again, as a script's EVAL fallback does, is called again for that command).
   */
  abstract static class Call {
    /** When the call times out ({@link System#nanoTime()}), if {@link #timed}. */
    private long deadline;

    private boolean timed;

    /** Whether its reply came (set under the connection's lock, on the I/O thread). */
    private boolean answered;

    /** The node's reply (a {@link RespError} for an error reply), on the I/O thread. */
    abstract void reply(@Nullable Object reply);

    /** No reply will come: the connection broke or closed, or the request was never sent. */
    abstract void fail(Throwable cause);

    /**
     * The timeout passed without a reply, on the I/O thread; the reply may still come (and is then
     * handed to {@link #reply}, which must ignore it if the call has given up).
     */
    void timeOut() {
      fail(new TimeoutException());
    }
  }

  /** Replies that answer no request (pub/sub messages); true if {@code reply} was one. */
  interface Pushes {
    boolean accept(@Nullable Object reply);
  }

  private static final long MIN_BACKOFF = TimeUnit.MILLISECONDS.toNanos(10);
  private static final long MAX_BACKOFF = TimeUnit.SECONDS.toNanos(1);

  private final NodeEndpoint endpoint;
  private final IoLoop loop;
  private final long connectTimeoutNanos;

  /** The login commands, then the handshake's, encoded once: every socket sends them. */
  private final List<byte[]> opening;

  /** How many of {@link #opening} log in (their errors fail the attempt). */
  private final int loginCommands;

  private final Consumer<String> handshakeErrors;
  private final Pushes pushes;
  private final Consumer<RespConnection> onReady;

  private final Object lock = new Object();

  /**
   * Guards each link's {@code pending} and {@code deadlines} queues and the calls' {@code answered}
   * flags, so the I/O thread can hand a reply to its call without waiting for a caller that holds
   * {@link #lock} while it writes to the socket (a system call). Taken inside {@link #lock} when
   * both are needed, never the other way round.
   */
  private final Object queues = new Object();

  /** The current socket, connecting or ready; null between attempts. Guarded by {@link #lock}. */
  private volatile @Nullable Link link;

  /** Guarded by {@link #lock}. */
  private boolean closed;

  /** Why the last attempt failed or the last socket broke. Guarded by {@link #lock}. */
  private @Nullable Throwable lastFailure;

  /** Guarded by {@link #lock}. */
  private long backoffNanos = MIN_BACKOFF;

  /**
   * Whether a retry is scheduled: until it runs, requests do not start attempts of their own, so a
   * node that is down costs one attempt per backoff period, not one per request. Guarded by lock.
   */
  private boolean retryScheduled;

  /**
   * Completes when the next socket becomes ready, fails when the attempt under way fails; replaced
   * by a new future either way. Guarded by {@link #lock}.
   */
  private CompletableFuture<Void> nextReady = new CompletableFuture<>();

  /**
   * @param handshake commands sent after logging in, before the connection is ready; their errors
   *     do not fail the attempt
   * @param handshakeErrors given the text of each error a handshake command answered, on the I/O
   *     thread, before the socket becomes ready
   * @param pushes replies that answer no request, or {@code reply -> false} if there are none
   * @param onReady run on the I/O thread whenever a socket has become ready (after a reconnect too)
   */
  RespConnection(
      NodeEndpoint endpoint,
      IoLoop loop,
      Duration connectTimeout,
      List<String[]> handshake,
      Consumer<String> handshakeErrors,
      Pushes pushes,
      Consumer<RespConnection> onReady) {
    this.endpoint = endpoint;
    this.loop = loop;
    this.connectTimeoutNanos = connectTimeout.toNanos();
    List<byte[]> encoded = new ArrayList<>();
    endpoint.login().forEach(command -> encoded.add(RespWriter.encode(command)));
    this.loginCommands = encoded.size();
    handshake.forEach(command -> encoded.add(RespWriter.encode(command)));
    this.opening = List.copyOf(encoded);
    this.handshakeErrors = handshakeErrors;
    this.pushes = pushes;
    this.onReady = onReady;
    loop.track(this);
  }

  String label() {
    return endpoint.label();
  }

  /**
   * Completes once a socket is ready: at once if one is, else when the attempt under way (started
   * now if there is none) succeeds; fails if that attempt fails.
   */
  CompletableFuture<Void> whenReady() {
    synchronized (lock) {
      if (link != null && link.ready) {
        return CompletableFuture.completedFuture(null);
      }
      if (closed) {
        return CompletableFuture.failedFuture(closedFailure());
      }
      CompletableFuture<Void> waiting = nextReady;
      ensureConnecting();
      return waiting;
    }
  }

  /** Whether a socket is ready now. */
  boolean isReady() {
    synchronized (lock) {
      return link != null && link.ready;
    }
  }

  /**
   * Writes {@code command} on the ready socket and queues {@code call} for its reply; or, if there
   * is no ready socket, fails {@code call} at once (on the caller's thread) and starts connecting.
   */
  void send(Call call, String... command) {
    send(call, 0, command);
  }

  /**
   * The same, and if {@code timeoutNanos} is positive, {@link Call#timeOut} once it passes without
   * a reply. The timeout is at most the loop's longest sleep (the node timeout), so the loop never
   * needs a wake-up for it. A command that cannot be encoded (a null argument) fails its call at
   * once, whatever the connection's state.
   */
  void send(Call call, long timeoutNanos, String... command) {
    byte[] encoded;
    try {
      encoded = RespWriter.encode(command);
    } catch (RuntimeException | Error e) { // a null argument, or no memory for the bytes
      call.fail(e);
      return;
    }
    send(call, timeoutNanos, encoded, encoded.length);
  }

  /**
   * The same with the command already encoded, {@code command} from 0 to {@code length}: copied
   * before this returns, and before the call can complete.
   */
  void send(Call call, long timeoutNanos, byte[] command, int length) {
    Link sentOn = null;
    Throwable refused = null;
    IOException broken = null;
    synchronized (lock) {
      Link current = link;
      if (closed) {
        refused = closedFailure();
      } else if (current == null || !current.ready) {
        refused = notConnected();
        ensureConnecting();
      } else {
        sentOn = current;
        try {
          broken = current.write(call, timeoutNanos, command, length);
        } catch (Unbuffered e) {
          refused = e.getCause(); // nothing of it was queued or written: the connection is fine
        }
      }
    }
    if (refused != null) {
      call.fail(refused);
    } else if (broken != null) {
      fail(sentOn, broken);
    }
  }

  private RespConnectionException notConnected() {
    Throwable last = lastFailure;
    return new RespConnectionException(
        "not connected to "
            + label()
            + (last == null ? " yet" : ": " + NodeFailures.describe(last)));
  }

  private IllegalStateException closedFailure() {
    return new IllegalStateException("the Redlock client was closed before the node answered");
  }

  /** Starts a connect attempt unless one is under way, a socket is ready, or this is closed. */
  private void ensureConnecting() {
    if (closed || link != null || retryScheduled) {
      return;
    }
    Link attempt = new Link();
    link = attempt;
    // The name is resolved off the I/O thread (a slow resolver must not hold up every node's
    // replies and timeouts), then the socket is opened on it.
    CompletableFuture.supplyAsync(() -> new InetSocketAddress(endpoint.host(), endpoint.port()))
        .whenComplete(
            (address, failure) ->
                loop.execute(
                    () -> {
                      if (failure != null) {
                        fail(attempt, failure);
                      } else {
                        attempt.open(address);
                      }
                    }));
    attempt.cancelConnectTimeout =
        loop.schedule(
            () ->
                fail(
                    attempt,
                    new ConnectTimeout(
                        "connect to "
                            + label()
                            + " timed out after "
                            + TimeUnit.NANOSECONDS.toMillis(connectTimeoutNanos)
                            + " ms")),
            connectTimeoutNanos);
  }

  /**
   * Drops {@code failed} (if it is still current): closes its socket, fails its pending calls and
   * anyone waiting for it to become ready, and schedules the next attempt. Idempotent.
   */
  private void fail(Link failed, Throwable cause) {
    List<Call> orphaned;
    CompletableFuture<Void> waiting = null;
    boolean wasReady;
    boolean isClosed;
    synchronized (lock) {
      isClosed = closed;
      if (failed.dead || (failed.ready && cause instanceof ConnectTimeout)) {
        return;
      }
      failed.dead = true;
      failed.cancelConnectTimeout.run(); // else its timer would keep this link for the timeout
      failed.closeSocket();
      synchronized (queues) {
        orphaned = new ArrayList<>(failed.pending);
        failed.pending.clear();
        failed.deadlines.clear();
      }
      wasReady = failed.ready;
      if (link == failed) {
        link = null;
        lastFailure = cause;
        if (!wasReady) {
          waiting = nextReady;
          nextReady = new CompletableFuture<>();
        }
        scheduleRetry();
      }
    }
    RespConnectionException failure =
        isClosed
            ? null
            : new RespConnectionException(
                (wasReady ? "connection to " + label() + " lost: " : "")
                    + NodeFailures.describe(cause),
                cause);
    for (Call call : orphaned) {
      call.fail(failure == null ? closedFailure() : failure);
    }
    if (waiting != null) {
      waiting.completeExceptionally(failure == null ? closedFailure() : failure);
    }
  }

  /** A command that did not fit in memory; its cause fails the call alone. */
  private static final class Unbuffered extends RuntimeException {
    Unbuffered(Throwable cause) {
      super(cause);
    }
  }

  /** Marker for the connect timeout, which must not drop a socket that became ready. */
  private static final class ConnectTimeout extends RespConnectionException {
    ConnectTimeout(String message) {
      super(message);
    }
  }

  private void scheduleRetry() {
    if (closed) {
      return;
    }
    long delay = backoffNanos;
    backoffNanos = Math.min(backoffNanos * 2, MAX_BACKOFF);
    retryScheduled = true;
    loop.schedule(
        () -> {
          synchronized (lock) {
            retryScheduled = false;
            ensureConnecting();
          }
        },
        delay);
  }

  /**
   * On the I/O thread: times out the calls whose deadline passed. Calls leave the queue of
   * deadlines when answered or timed out, in send order; their deadlines are in the same order (one
   * timeout per connection), so only the head is ever due.
   */
  @Override
  public long expireDue(long now) {
    List<Call> expired = null;
    long next = Long.MAX_VALUE;
    Link current = link;
    if (current == null) {
      return next; // a link that failed has failed its calls
    }
    synchronized (queues) {
      Call head;
      while ((head = current.deadlines.peek()) != null) {
        if (!head.answered && head.deadline - now > 0) {
          next = head.deadline - now;
          break;
        }
        current.deadlines.poll();
        if (!head.answered) {
          if (expired == null) {
            expired = new ArrayList<>();
          }
          expired.add(head);
        }
      }
    }
    if (expired != null) {
      for (Call call : expired) {
        call.timeOut();
      }
    }
    return next;
  }

  /** Closes the socket; pending calls and later ones fail. Idempotent. */
  void close() {
    loop.untrack(this);
    Link current;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      current = link;
    }
    if (current != null) {
      fail(current, closedFailure());
    }
    CompletableFuture<Void> waiting;
    synchronized (lock) {
      waiting = nextReady;
    }
    waiting.completeExceptionally(closedFailure());
  }

  /** One socket, from its connect attempt until it breaks or closes. */
  private final class Link implements IoLoop.Handler {
    private @Nullable SocketChannel channel;
    private @Nullable SelectionKey key;

    /** Calls waiting for replies, in the order of their commands on the wire. Guarded by lock. */
    private final ArrayDeque<Call> pending = new ArrayDeque<>();

    /**
     * Calls sent with a timeout and not yet dropped by {@link #expireDue}, in send order. Guarded
     * by lock.
     */
    private final ArrayDeque<Call> deadlines = new ArrayDeque<>();

    /**
     * Bytes not written yet (write mode). Direct, so that a write needs no copy into one of the
     * JDK's per-thread temporary direct buffers; commands come encoded, and are put in it in bulk.
     * Empty until the socket connects, so a node that stays down costs no direct memory per
     * attempt. It grows behind a node that does not read (it never shrinks), off the heap. Guarded
     * by lock.
     */
    private ByteBuffer out = ByteBuffer.allocate(0);

    /** Whether the socket was full: the I/O thread writes {@link #out} when it has room. */
    private boolean writeBlocked;

    /** Logged in and handshake done. Guarded by lock. */
    private boolean ready;

    private boolean dead;

    /** Handshake replies still to come. Guarded by lock. */
    private int handshakeLeft;

    /**
     * Bytes read and not parsed yet (write mode between reads). Direct, so a read lands in it
     * without a copy. Empty until the socket connects, like {@link #out}. I/O thread only.
     */
    private ByteBuffer in = ByteBuffer.allocate(0);

    /**
     * Drops the connect timeout's timer, which refers to this link: run once the attempt ended. Set
     * when the attempt starts. Guarded by lock.
     */
    private Runnable cancelConnectTimeout = () -> {};

    /** On the I/O thread: connects to the resolved {@code address}. */
    void open(InetSocketAddress address) {
      try {
        if (address.isUnresolved()) {
          throw new IOException("cannot resolve " + endpoint.host());
        }
        SocketChannel opened = SocketChannel.open();
        synchronized (lock) {
          if (dead) {
            opened.close();
            return;
          }
          channel = opened;
        }
        opened.configureBlocking(false);
        opened.setOption(StandardSocketOptions.TCP_NODELAY, true);
        opened.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        boolean connected = opened.connect(address);
        SelectionKey registered =
            opened.register(
                loop.selector(), connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
        synchronized (lock) {
          key = registered;
        }
        if (connected) {
          connected();
        }
      } catch (IOException | RuntimeException e) {
        fail(this, e);
      }
    }

    @Override
    public void ready(SelectionKey readyKey) {
      try {
        if (readyKey.isConnectable()) {
          ((SocketChannel) readyKey.channel()).finishConnect();
          readyKey.interestOps(SelectionKey.OP_READ);
          connected();
          return;
        }
        if (readyKey.isWritable()) {
          synchronized (lock) {
            flushFromLoop();
          }
        }
        if (readyKey.isReadable()) {
          read();
        }
      } catch (Throwable e) {
        // An Error too: what it interrupted (a read, a write) may have left the buffers in any
        // state, so the socket is dropped (its calls fail) rather than read from again.
        fail(this, e);
      }
    }

    /** Logs in and sends the handshake; the socket is ready when the last reply is in. */
    private void connected() {
      IOException broken = null;
      boolean readyNow = false;
      synchronized (lock) {
        if (dead) {
          return;
        }
        in = ByteBuffer.allocateDirect(16 * 1024);
        handshakeLeft = opening.size();
        readyNow = handshakeLeft == 0;
        for (int i = 0; i < opening.size() && broken == null; i++) {
          byte[] command = opening.get(i);
          broken = write(new HandshakeCall(this, i < loginCommands), 0, command, command.length);
        }
      }
      if (broken != null) {
        fail(this, broken);
      } else if (readyNow) {
        becomeReady();
      }
    }

    private void handshakeReplied() {
      boolean done;
      synchronized (lock) {
        done = !dead && --handshakeLeft == 0;
      }
      if (done) {
        becomeReady();
      }
    }

    private void becomeReady() {
      CompletableFuture<Void> waiting;
      synchronized (lock) {
        if (dead || link != this) {
          return;
        }
        ready = true;
        cancelConnectTimeout.run();
        backoffNanos = MIN_BACKOFF;
        lastFailure = null;
        waiting = nextReady;
        nextReady = new CompletableFuture<>();
      }
      waiting.complete(null);
      onReady.accept(RespConnection.this);
    }

    /** Appends the command and its call; writes what the socket takes. Holds the lock. */
    @Nullable IOException write(Call call, long timeoutNanos, byte[] command, int length) {
      // Buffered first and queued only then: a call in the queue without its command on the wire
      // would take the next command's reply, and every reply after it would go to the wrong call.
      try {
        room(length).put(command, 0, length);
      } catch (RuntimeException | Error e) { // no memory for a larger buffer: nothing was put
        throw new Unbuffered(e);
      }
      synchronized (queues) {
        if (timeoutNanos > 0) {
          call.timed = true;
          // Read under the queue lock, so that the I/O thread's last look at the deadlines
          // (IoLoop.expireDue) either saw this call or came before this clock reading.
          call.deadline = System.nanoTime() + timeoutNanos;
        }
        call.answered = false;
        if (call.timed) {
          // Sent again (a script's EVAL after NOSCRIPT), it keeps its first deadline: its earlier
          // entry, still queued, times it out then; this one only once at the head.
          deadlines.add(call);
        }
        pending.add(call);
      }
      try {
        if (!writeBlocked) {
          flush();
        }
        return null;
      } catch (IOException e) {
        return e;
      }
    }

    /** {@link #out} with at least {@code bytes} free. Holds the lock. */
    private ByteBuffer room(int bytes) {
      if (out.remaining() < bytes) {
        ByteBuffer larger =
            ByteBuffer.allocateDirect(
                Math.max(Math.max(out.capacity() * 2, 8192), out.position() + bytes));
        out.flip();
        larger.put(out);
        out = larger;
      }
      return out;
    }

    /** Writes what the socket takes; asks the I/O thread to write the rest. Holds the lock. */
    private void flush() throws IOException {
      out.flip();
      channel.write(out);
      out.compact();
      if (out.position() > 0) {
        writeBlocked = true;
        SelectionKey k = key;
        loop.execute(
            () -> {
              if (k.isValid()) {
                k.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
              }
            });
      }
    }

    /** On the I/O thread, when the socket has room again. Holds the lock. */
    private void flushFromLoop() throws IOException {
      out.flip();
      channel.write(out);
      out.compact();
      if (out.position() == 0) {
        writeBlocked = false;
        key.interestOps(SelectionKey.OP_READ);
      }
    }

    /**
     * On the I/O thread: reads what arrived until a read leaves room in the buffer, so that every
     * reply the socket holds is delivered before the loop checks deadlines.
     */
    private void read() throws IOException {
      while (readOnce()) {
        // The read filled the buffer: the socket may hold more.
      }
    }

    /**
     * Reads what arrived, as much as the buffer takes, and hands each complete reply to its call;
     * true if the read filled the buffer.
     */
    private boolean readOnce() throws IOException {
      int room = in.remaining();
      int read = channel.read(in);
      if (read < 0) {
        throw new IOException("connection closed by the node");
      }
      in.flip();
      try {
        while (in.hasRemaining()) {
          Object reply = RespReader.read(in);
          if (reply == RespReader.INCOMPLETE) {
            break;
          }
          deliver(reply);
        }
      } finally {
        in.compact(); // whatever happened, the buffer is back in write mode with the unread tail
      }
      if (!in.hasRemaining()) {
        ByteBuffer larger = ByteBuffer.allocateDirect(in.capacity() * 2);
        in.flip();
        larger.put(in);
        in = larger;
      }
      return read == room;
    }

    private void deliver(@Nullable Object reply) {
      try {
        if (pushes.accept(reply)) {
          return;
        }
      } catch (RuntimeException e) {
        log.warn("a pushed message's handler failed", e); // the message is consumed either way
        return;
      }
      Call call;
      synchronized (queues) {
        call = pending.poll();
        if (call != null) {
          call.answered = true;
        }
      }
      if (call == null) {
        throw new RespProtocolException("a reply without a request: " + reply);
      }
      try {
        call.reply(reply);
      } catch (RuntimeException e) {
        // A call completes futures, whose dependents keep their own failures: this is a bug in a
        // call. The connection is fine, and the next reply belongs to the next call.
        log.warn("a reply's handler failed", e);
      }
    }

    /** Holds the lock. */
    private void closeSocket() {
      try {
        if (key != null) {
          key.cancel();
        }
        if (channel != null) {
          channel.close();
        }
      } catch (IOException e) {
        // Nothing to do: the socket is dropped either way.
      }
    }
  }

  /**
   * A reply to a handshake command: a login error fails the attempt; script loads' are reported.
   */
  private final class HandshakeCall extends Call {
    private final Link link;
    private final boolean required;

    HandshakeCall(Link link, boolean required) {
      this.link = link;
      this.required = required;
    }

    @Override
    void reply(@Nullable Object reply) {
      // NOAUTH on a script load means the node wants a password the URI lacks: such a socket is
      // not usable (the node even drops it on a command with more than 10 arguments, replying a
      // protocol error that does not say why), so the attempt fails with the node's refusal.
      if (reply instanceof RespError error && (required || error.message().startsWith("NOAUTH"))) {
        RespConnection.this.fail(link, new RespCommandException(error.message()));
        return;
      }
      if (reply instanceof RespError error) {
        handshakeErrors.accept(error.message());
      }
      link.handshakeReplied();
    }

    @Override
    void fail(Throwable cause) {
      // The link's failure is reported to whoever waits for it to become ready.
    }
  }
}
