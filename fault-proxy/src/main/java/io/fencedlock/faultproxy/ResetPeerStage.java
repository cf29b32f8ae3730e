package io.fencedlock.faultproxy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * reset_peer {timeout}: on the next chunk or end in its direction it drops the data, waits {@code
 * timeout} ms, then closes. The close is a TCP RST only because the link set SO_LINGER=0 on its
 * source socket at connection setup when this toxic was already in the chain; added to a live
 * connection it closes with a FIN, as Toxiproxy does. Confined to the I/O loop thread.
 */
final class ResetPeerStage extends ToxicStage {

  private boolean triggered;
  private @Nullable Cancellable timer;

  ResetPeerStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
  }

  @Override
  protected void onChunk(Chunk chunk) {
    trigger();
  }

  @Override
  protected void onEnd() {
    trigger();
  }

  @Override
  protected Held onInterrupt() {
    cancel(timer);
    timer = null;
    if (triggered && !outputEnded()) {
      // The close was already decided; the replacement (or the next stage) carries it out.
      return new Held(List.of(), true);
    }
    return held(List.of());
  }

  private void trigger() {
    if (triggered) {
      return;
    }
    triggered = true;
    long timeout = config.attribute("timeout");
    if (timeout <= 0) {
      emitEnd();
      return;
    }
    timer =
        context.schedule(
            TimeUnit.MILLISECONDS.toNanos(timeout),
            () -> {
              timer = null;
              emitEnd();
            });
  }
}
