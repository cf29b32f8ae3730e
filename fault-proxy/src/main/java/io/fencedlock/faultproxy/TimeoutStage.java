package io.fencedlock.faultproxy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * timeout {timeout}: drops all data. With a positive timeout it closes the connection once that
 * long passes with no new data (every dropped chunk restarts the timer); with 0 it never closes on
 * its own. Removing the toxic closes the connection, as Toxiproxy's cleanup does. Confined to the
 * I/O loop thread.
 */
final class TimeoutStage extends ToxicStage {

  private @Nullable Cancellable timer;

  TimeoutStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
  }

  @Override
  void start() {
    restartTimer();
  }

  @Override
  protected void onChunk(Chunk chunk) {
    restartTimer();
  }

  @Override
  protected void onEnd() {
    cancel(timer);
    timer = null;
    emitEnd();
  }

  @Override
  protected Held onInterrupt() {
    cancel(timer);
    timer = null;
    return held(List.of());
  }

  @Override
  Held remove() {
    Held held = interrupt();
    emitEnd();
    return held;
  }

  private void restartTimer() {
    cancel(timer);
    timer = null;
    long timeout = config.attribute("timeout");
    if (timeout > 0) {
      timer =
          context.schedule(
              TimeUnit.MILLISECONDS.toNanos(timeout),
              () -> {
                timer = null;
                emitEnd();
              });
    }
  }
}
