package io.fencedlock.faultproxy;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** Records what reaches the end of a chain, and when (on the manual clock). Not thread-safe. */
final class RecordingSink implements ChunkSink {

  /** One delivered chunk and the clock time it arrived. */
  record Delivery(byte[] data, long atNanos) {}

  private final ManualContext clock;
  private final List<Delivery> deliveries = new ArrayList<>();
  private long endedAtNanos = -1;

  RecordingSink(ManualContext clock) {
    this.clock = clock;
  }

  @Override
  public void accept(Chunk chunk) {
    deliveries.add(new Delivery(chunk.data(), clock.nanoTime()));
  }

  @Override
  public void end() {
    endedAtNanos = clock.nanoTime();
  }

  List<Delivery> deliveries() {
    return deliveries;
  }

  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    deliveries.forEach(delivery -> out.writeBytes(delivery.data()));
    return out.toByteArray();
  }

  boolean ended() {
    return endedAtNanos >= 0;
  }

  long endedAtNanos() {
    return endedAtNanos;
  }
}
