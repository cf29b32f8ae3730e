package io.fencedlock.faultproxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The end of a link's chain: writes chunks to the destination socket, each with its own write so
 * sliced pieces stay separate, queueing whatever the socket does not take yet. After the end and a
 * full drain it closes the destination, as Toxiproxy does.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class OutboundQueue implements ChunkSink {

  private final Endpoint destination;
  private final Runnable closeDestination;
  private final Runnable onProgress;
  private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();
  private long queuedBytes;
  private boolean endRequested;
  private boolean discarding;

  /**
   * @param closeDestination closes the destination socket through its connection
   * @param onProgress told after bytes left the queue, to lift backpressure
   */
  OutboundQueue(Endpoint destination, Runnable closeDestination, Runnable onProgress) {
    this.destination = destination;
    this.closeDestination = closeDestination;
    this.onProgress = onProgress;
  }

  @Override
  public void accept(Chunk chunk) {
    if (discarding || endRequested || chunk.length() == 0) {
      return;
    }
    pending.add(ByteBuffer.wrap(chunk.data()));
    queuedBytes += chunk.length();
    if (pending.size() == 1) {
      flush();
    }
  }

  @Override
  public void end() {
    if (discarding || endRequested) {
      return;
    }
    endRequested = true;
    if (pending.isEmpty()) {
      closeDestination.run();
    }
  }

  /** The destination can take more bytes. */
  void onWritable() {
    flush();
    onProgress.run();
  }

  /** The destination is closed: drop what is queued and anything that still arrives. */
  void discard() {
    discarding = true;
    pending.clear();
    queuedBytes = 0;
  }

  long queuedBytes() {
    return queuedBytes;
  }

  private void flush() {
    while (!pending.isEmpty() && !discarding) {
      ByteBuffer buffer = pending.getFirst();
      try {
        queuedBytes -= destination.write(buffer);
      } catch (IOException e) {
        // The peer went away (reset, broken pipe); like Toxiproxy, close the destination.
        discard();
        closeDestination.run();
        return;
      }
      if (buffer.hasRemaining()) {
        destination.setWriteInterest(true);
        return;
      }
      pending.removeFirst();
    }
    destination.setWriteInterest(false);
    if (endRequested && !discarding) {
      closeDestination.run();
    }
  }
}
