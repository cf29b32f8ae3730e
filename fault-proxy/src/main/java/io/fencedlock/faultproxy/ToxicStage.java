package io.fencedlock.faultproxy;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One toxic running on one link: it receives the link's chunks from the previous stage and emits
 * (possibly delayed, cut or dropped) chunks to the next one.
 *
 * <p>A stage is one "run" of a toxic in Toxiproxy's sense. Updating a toxic, or changing the chain
 * around it, {@linkplain #interrupt() interrupts} the run and starts a new stage with a fresh
 * toxicity draw; whatever the old stage still {@link Held held} is fed to the new one. Once a stage
 * has emitted the end ("closed the connection") it ignores further input.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
abstract sealed class ToxicStage implements ChunkSink
    permits PassThroughStage,
        LatencyStage,
        BandwidthStage,
        SlowCloseStage,
        TimeoutStage,
        ResetPeerStage,
        SlicerStage,
        LimitDataStage {

  protected final ToxicConfig config;
  protected final StageContext context;
  private final ChunkSink out;
  private boolean inputEnded;
  private boolean outputEnded;
  private boolean stopped;

  ToxicStage(ToxicConfig config, ChunkSink out, StageContext context) {
    this.config = config;
    this.out = out;
    this.context = context;
  }

  /** Creates the stage that runs {@code config}'s toxic. */
  static ToxicStage running(
      ToxicConfig config, ToxicState state, ChunkSink out, StageContext context) {
    return switch (config.type()) {
      case LATENCY -> new LatencyStage(config, out, context);
      case BANDWIDTH -> new BandwidthStage(config, out, context);
      case SLOW_CLOSE -> new SlowCloseStage(config, out, context);
      case TIMEOUT -> new TimeoutStage(config, out, context);
      case RESET_PEER -> new ResetPeerStage(config, out, context);
      case SLICER -> new SlicerStage(config, out, context);
      case LIMIT_DATA -> new LimitDataStage(config, state, out, context);
    };
  }

  /** Called once the stage is wired into its chain; timers that run from the start arm here. */
  void start() {
    // Most toxics only react to input.
  }

  @Override
  public final void accept(Chunk chunk) {
    // After a stop or a close the data has nowhere to go; Toxiproxy would stall it, we drop it.
    if (stopped || inputEnded || outputEnded) {
      return;
    }
    onChunk(chunk);
  }

  @Override
  public final void end() {
    if (stopped || inputEnded) {
      return;
    }
    inputEnded = true;
    onEnd();
  }

  /**
   * Stops this run: cancels its timers, emits what Toxiproxy emits when interrupted (the chunk it
   * was working on), and returns the rest for the replacement stage.
   */
  final Held interrupt() {
    if (stopped) {
      return Held.NOTHING;
    }
    stopped = true;
    return onInterrupt();
  }

  /** Stops this run because its toxic is being removed. */
  Held remove() {
    return interrupt();
  }

  /** Bytes this stage holds and has not emitted yet; drives the link's backpressure. */
  long heldBytes() {
    return 0;
  }

  protected abstract void onChunk(Chunk chunk);

  /** Default: pass the end on at once. */
  protected void onEnd() {
    emitEnd();
  }

  /** Default: nothing is held, but an end that arrived and was not passed on still is. */
  protected Held onInterrupt() {
    return held(List.of());
  }

  protected final Held held(List<Chunk> rest) {
    return new Held(rest, inputEnded && !outputEnded);
  }

  protected final boolean inputEnded() {
    return inputEnded;
  }

  protected final boolean outputEnded() {
    return outputEnded;
  }

  protected final void emit(Chunk chunk) {
    if (!outputEnded) {
      out.accept(chunk);
    }
  }

  /** Passes the end on: in Toxiproxy terms the toxic closes the connection. */
  protected final void emitEnd() {
    if (!outputEnded) {
      outputEnded = true;
      out.end();
    }
  }

  protected static void cancel(@Nullable Cancellable timer) {
    if (timer != null) {
      timer.cancel();
    }
  }
}
