package io.fencedlock.faultproxy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * latency {latency, jitter}: each chunk leaves at its arrival + latency + U[-jitter, +jitter),
 * drawn per chunk, never before the chunk ahead of it. The extension attributes {@code latency_us}
 * and {@code jitter_us} add microseconds to both (see {@link ToxicType}). Because the wait is
 * measured from arrival, back-to-back chunks do not add up. Confined to the I/O loop thread.
 */
final class LatencyStage extends ToxicStage {

  private record Pending(Chunk chunk, long dueNanos) {}

  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private long heldBytes;
  private @Nullable Cancellable timer;

  /** The fixed part of every chunk's delay. */
  private final long latencyMicros;

  /**
   * The jitter, in units of {@link #jitterUnitMicros}: drawn per chunk from U[-jitter, +jitter).
   */
  private final long jitter;

  /**
   * 1000 without {@code jitter_us}, so the jitter is drawn in whole milliseconds as Toxiproxy draws
   * it; 1 with it, so it is drawn per microsecond over the whole jitter.
   */
  private final long jitterUnitMicros;

  LatencyStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
    this.latencyMicros =
        TimeUnit.MILLISECONDS.toMicros(config.attribute("latency"))
            + config.attribute("latency_us");
    long extraJitterMicros = config.attribute("jitter_us");
    this.jitterUnitMicros = extraJitterMicros == 0 ? 1000 : 1;
    this.jitter =
        extraJitterMicros == 0
            ? config.attribute("jitter")
            : TimeUnit.MILLISECONDS.toMicros(config.attribute("jitter")) + extraJitterMicros;
  }

  @Override
  protected void onChunk(Chunk chunk) {
    long due = chunk.arrivalNanos() + delayNanos();
    if (queue.isEmpty() && due <= context.nanoTime()) {
      emit(chunk);
      return;
    }
    queue.add(new Pending(chunk, due));
    heldBytes += chunk.length();
    if (timer == null) {
      armForHead();
    }
  }

  @Override
  protected void onEnd() {
    // The end is not delayed, but it must not overtake data still waiting here.
    if (queue.isEmpty()) {
      emitEnd();
    }
  }

  @Override
  protected Held onInterrupt() {
    cancel(timer);
    timer = null;
    if (!queue.isEmpty()) {
      // Toxiproxy forwards the chunk it was sleeping on instead of dropping it.
      emit(queue.poll().chunk());
    }
    List<Chunk> rest = new ArrayList<>(queue.size());
    queue.forEach(pending -> rest.add(pending.chunk()));
    queue.clear();
    heldBytes = 0;
    return held(rest);
  }

  @Override
  long heldBytes() {
    return heldBytes;
  }

  private void armForHead() {
    long wait = queue.getFirst().dueNanos() - context.nanoTime();
    timer = context.schedule(wait, this::releaseDue);
  }

  private void releaseDue() {
    timer = null;
    long now = context.nanoTime();
    while (!queue.isEmpty() && queue.getFirst().dueNanos() <= now) {
      Pending pending = queue.poll();
      heldBytes -= pending.chunk().length();
      emit(pending.chunk());
    }
    if (!queue.isEmpty()) {
      armForHead();
    } else if (inputEnded()) {
      emitEnd();
    }
  }

  private long delayNanos() {
    long drawn = jitter > 0 ? context.random().nextLong(2 * jitter) - jitter : 0;
    return TimeUnit.MICROSECONDS.toNanos(latencyMicros + drawn * jitterUnitMicros);
  }
}
