package io.fencedlock.faultproxy;

/**
 * Receives a link's data in order, then at most one end-of-stream. Implementations are confined to
 * the I/O loop thread.
 */
interface ChunkSink {

  /** Takes one chunk; after {@link #end()} chunks are ignored. */
  void accept(Chunk chunk);

  /** The input has ended: once earlier data is out, the destination should close. */
  void end();
}
