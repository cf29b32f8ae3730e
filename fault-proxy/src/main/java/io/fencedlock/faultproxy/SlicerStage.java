package io.fencedlock.faultproxy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * slicer {average_size, size_variation, delay}: halves each chunk recursively, shifting the
 * midpoint by U[-size_variation, +size_variation), until a piece is at most average_size +
 * size_variation, then writes the pieces separately, {@code delay} µs apart. Confined to the I/O
 * loop thread.
 */
final class SlicerStage extends ToxicStage {

  private final ArrayDeque<Chunk> pieces = new ArrayDeque<>();
  private final long delayNanos;
  private long nextSendNanos;
  private long heldBytes;
  private @Nullable Cancellable timer;

  SlicerStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
    this.delayNanos = TimeUnit.MICROSECONDS.toNanos(config.attribute("delay"));
  }

  @Override
  protected void onChunk(Chunk chunk) {
    List<Chunk> sliced =
        slice(
            chunk,
            config.attribute("average_size"),
            config.attribute("size_variation"),
            context.random());
    pieces.addAll(sliced);
    heldBytes += chunk.length();
    if (timer == null) {
      sendDuePieces();
    }
  }

  @Override
  protected void onEnd() {
    if (timer == null && pieces.isEmpty()) {
      emitEnd();
    }
  }

  @Override
  protected Held onInterrupt() {
    cancel(timer);
    timer = null;
    List<Chunk> rest = new ArrayList<>(pieces);
    pieces.clear();
    heldBytes = 0;
    return held(rest);
  }

  @Override
  long heldBytes() {
    return heldBytes;
  }

  private void sendDuePieces() {
    timer = null;
    while (!pieces.isEmpty()) {
      long wait = nextSendNanos - context.nanoTime();
      if (wait > 0) {
        timer = context.schedule(wait, this::sendDuePieces);
        return;
      }
      Chunk piece = pieces.poll();
      heldBytes -= piece.length();
      emit(piece);
      if (delayNanos > 0) {
        nextSendNanos = context.nanoTime() + delayNanos;
      }
    }
    if (inputEnded()) {
      emitEnd();
    }
  }

  /**
   * Toxiproxy's slicing, iterative so a lopsided split cannot overflow the stack. Pieces are at
   * least one byte, which also keeps average_size 0 from recursing forever.
   */
  static List<Chunk> slice(
      Chunk chunk, long averageSize, long sizeVariation, RandomGenerator random) {
    List<Chunk> out = new ArrayList<>();
    ArrayDeque<int[]> ranges = new ArrayDeque<>();
    ranges.push(new int[] {0, chunk.length()});
    while (!ranges.isEmpty()) {
      int[] range = ranges.pop();
      int size = range[1] - range[0];
      if (size - averageSize <= sizeVariation || size <= 1) {
        if (size > 0) {
          out.add(chunk.slice(range[0], range[1]));
        }
        continue;
      }
      long shift = sizeVariation > 0 ? random.nextLong(2 * sizeVariation) - sizeVariation : 0;
      int mid = (int) Math.max(range[0] + 1, Math.min(range[1] - 1, range[0] + size / 2 + shift));
      ranges.push(new int[] {mid, range[1]});
      ranges.push(new int[] {range[0], mid});
    }
    return out;
  }
}
