package io.fencedlock.faultproxy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * slow_close {delay}: data passes; the end is held for {@code delay} ms after the input ends.
 * Confined to the I/O loop thread.
 */
final class SlowCloseStage extends ToxicStage {

  private @Nullable Cancellable timer;

  SlowCloseStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
  }

  @Override
  protected void onChunk(Chunk chunk) {
    emit(chunk);
  }

  @Override
  protected void onEnd() {
    long delay = TimeUnit.MILLISECONDS.toNanos(config.attribute("delay"));
    timer =
        context.schedule(
            delay,
            () -> {
              timer = null;
              emitEnd();
            });
  }

  @Override
  protected Held onInterrupt() {
    // A pending end is handed to the replacement, which delays it again (or not, if removed).
    cancel(timer);
    timer = null;
    return held(List.of());
  }
}
