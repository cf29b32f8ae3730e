package io.fencedlock.faultproxy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * bandwidth {rate} in KB/s (1 KB = 1000 bytes): each chunk waits len/rate ms after the previous one
 * left; a chunk larger than rate×100 bytes goes out in rate×100-byte pieces every 100 ms. Like
 * Toxiproxy, overshoot of one wait is subtracted from the next. A rate ≤ 0 stalls the direction
 * (Toxiproxy loops forever there); an update or removal releases the data. Confined to the I/O loop
 * thread.
 */
final class BandwidthStage extends ToxicStage {

  private static final long PIECE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
  private final long rate;
  private @Nullable Chunk current;
  private long sleepNanos;
  private long heldBytes;
  private @Nullable Cancellable timer;

  BandwidthStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
    this.rate = config.attribute("rate");
  }

  @Override
  protected void onChunk(Chunk chunk) {
    queue.add(chunk);
    heldBytes += chunk.length();
    if (current == null) {
      sendNext();
    }
  }

  @Override
  protected void onEnd() {
    if (current == null && queue.isEmpty()) {
      emitEnd();
    }
  }

  @Override
  protected Held onInterrupt() {
    cancel(timer);
    timer = null;
    if (current != null) {
      // Toxiproxy flushes the chunk it was pacing rather than dropping it.
      emit(current);
      current = null;
    }
    ArrayList<Chunk> rest = new ArrayList<>(queue);
    queue.clear();
    heldBytes = 0;
    return held(rest);
  }

  @Override
  long heldBytes() {
    return heldBytes;
  }

  /** Takes queued chunks one by one; a chunk that needs no wait is sent in this loop. */
  private void sendNext() {
    while (current == null && !queue.isEmpty()) {
      current = queue.poll();
      if (rate <= 0) {
        return;
      }
      sleepNanos += current.length() * NANOS_PER_MILLI / rate;
      pace();
    }
    if (current == null && inputEnded()) {
      emitEnd();
    }
  }

  private void pace() {
    if (current.length() > rate * 100) {
      timer = context.schedule(PIECE_INTERVAL_NANOS, this::sendPiece);
      return;
    }
    if (sleepNanos <= 0) {
      sendCurrent();
      return;
    }
    long start = context.nanoTime();
    timer =
        context.schedule(
            sleepNanos,
            () -> {
              timer = null;
              sleepNanos -= context.nanoTime() - start;
              sendCurrent();
              sendNext();
            });
  }

  private void sendPiece() {
    timer = null;
    int piece = (int) (rate * 100);
    heldBytes -= piece;
    emit(current.slice(0, piece));
    current = current.slice(piece, current.length());
    sleepNanos -= PIECE_INTERVAL_NANOS;
    pace();
    if (current == null) {
      sendNext();
    }
  }

  private void sendCurrent() {
    Chunk chunk = current;
    current = null;
    heldBytes -= chunk.length();
    emit(chunk);
  }
}
