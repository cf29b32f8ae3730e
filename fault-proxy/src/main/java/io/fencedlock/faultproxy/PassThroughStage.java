package io.fencedlock.faultproxy;

/**
 * A toxic whose toxicity draw said "do not run" on this link, or a removed toxic's slot while the
 * chain is rewired: data and the end pass unchanged. Confined to the I/O loop thread.
 */
final class PassThroughStage extends ToxicStage {

  PassThroughStage(ToxicConfig config, ChunkSink out, StageContext context) {
    super(config, out, context);
  }

  @Override
  protected void onChunk(Chunk chunk) {
    emit(chunk);
  }
}
