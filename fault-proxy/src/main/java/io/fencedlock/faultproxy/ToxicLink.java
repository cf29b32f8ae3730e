package io.fencedlock.faultproxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One direction of a proxied connection: reads chunks from its source socket, runs them through its
 * {@link ToxicChain} and writes them via an {@link OutboundQueue}. Named after Toxiproxy's {@code
 * ToxicLink}, which plays the same part.
 *
 * <p>Backpressure: when the bytes held by the chain and the queue exceed {@link #PAUSE_ABOVE_BYTES}
 * the link stops reading its source, and resumes below {@link #RESUME_BELOW_BYTES}, so a slow toxic
 * or a slow reader cannot make the proxy buffer without bound.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class ToxicLink implements StageContext {

  static final long PAUSE_ABOVE_BYTES = 1024 * 1024;
  static final long RESUME_BELOW_BYTES = 256 * 1024;

  private final IoLoop loop;
  private final Endpoint source;
  private final Runnable onFailure;
  private final OutboundQueue outbound;
  private final ToxicChain chain;
  private boolean sourceEnded;
  private boolean readPaused;
  private boolean closed;

  /**
   * @param closeDestination closes {@code destination} through the connection
   * @param onFailure closes the whole connection if a toxic fails unexpectedly
   */
  ToxicLink(
      IoLoop loop,
      Endpoint source,
      Endpoint destination,
      List<ToxicConfig> toxics,
      Runnable closeDestination,
      Runnable onFailure) {
    this.loop = loop;
    this.source = source;
    this.onFailure = onFailure;
    this.outbound = new OutboundQueue(destination, closeDestination, this::applyBackpressure);
    // Last: building the chain may already schedule timers that run against this link.
    this.chain = new ToxicChain(toxics, outbound, this);
  }

  OutboundQueue outbound() {
    return outbound;
  }

  /** Adds a toxic to this live link. */
  void addToxic(ToxicConfig config) {
    chain.add(config);
    applyBackpressure();
  }

  /** Restarts a toxic of this live link with its new configuration. */
  void updateToxic(ToxicConfig config) {
    chain.update(config);
    applyBackpressure();
  }

  /** Removes a toxic from this live link; data it held is flushed on. */
  void removeToxic(String toxicName) {
    chain.remove(toxicName);
    applyBackpressure();
  }

  /** Reads one chunk: toxics act on one socket read each. */
  void onReadable() {
    if (closed || sourceEnded) {
      return;
    }
    ByteBuffer buffer = loop.readBuffer();
    int read;
    try {
      read = source.read(buffer);
    } catch (IOException e) {
      // A reset source ends this direction just as EOF does (Toxiproxy's io.Copy error).
      endSource();
      return;
    }
    if (read < 0) {
      endSource();
    } else if (read > 0) {
      byte[] data = new byte[read];
      buffer.flip().get(data);
      chain.accept(new Chunk(data, loop.nanoTime()));
      applyBackpressure();
    }
  }

  /** The source socket was closed by the other direction. */
  void sourceClosed() {
    if (!closed) {
      endSource();
    }
  }

  /** The destination socket is closed: nothing more can be delivered. */
  void destinationClosed() {
    outbound.discard();
  }

  /** Stops this link for good: drops queued data and cancels every toxic's timers. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    outbound.discard();
    chain.shutdown();
  }

  @Override
  public long nanoTime() {
    return loop.nanoTime();
  }

  @Override
  public Cancellable schedule(long delayNanos, Runnable task) {
    return loop.schedule(
        delayNanos,
        () -> {
          if (closed) {
            return;
          }
          try {
            task.run();
          } catch (RuntimeException e) {
            onFailure.run();
            throw e;
          }
          applyBackpressure();
        });
  }

  @Override
  public RandomGenerator random() {
    return loop.random();
  }

  private void endSource() {
    if (sourceEnded) {
      return;
    }
    sourceEnded = true;
    source.setReadInterest(false);
    chain.end();
  }

  private void applyBackpressure() {
    if (closed || sourceEnded) {
      return;
    }
    long held = chain.heldBytes() + outbound.queuedBytes();
    if (!readPaused && held > PAUSE_ABOVE_BYTES) {
      readPaused = true;
      source.setReadInterest(false);
    } else if (readPaused && held < RESUME_BELOW_BYTES) {
      readPaused = false;
      source.setReadInterest(true);
    }
  }
}
