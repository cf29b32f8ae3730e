package io.fencedlock.faultproxy;

/**
 * limit_data {bytes}: forwards up to {@code bytes} on this link (the count survives updates),
 * cutting the last chunk short, then closes. With 0 it closes on the first chunk. Confined to the
 * I/O loop thread.
 */
final class LimitDataStage extends ToxicStage {

  private final ToxicState state;

  LimitDataStage(ToxicConfig config, ToxicState state, ChunkSink out, StageContext context) {
    super(config, out, context);
    this.state = state;
  }

  @Override
  protected void onChunk(Chunk chunk) {
    long limit = config.attribute("bytes");
    long remaining = Math.max(0, limit - state.bytesTransmitted);
    Chunk allowed = chunk.length() > remaining ? chunk.slice(0, (int) remaining) : chunk;
    if (allowed.length() > 0) {
      emit(allowed);
      state.bytesTransmitted += allowed.length();
    }
    if (limit - state.bytesTransmitted <= 0) {
      emitEnd();
    }
  }
}
