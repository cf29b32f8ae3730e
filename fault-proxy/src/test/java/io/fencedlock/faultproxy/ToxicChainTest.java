package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Toxic stages and chain rewiring on a manual clock: exact timing, no sockets, no sleeping. */
final class ToxicChainTest {

  private static final long MS = 1_000_000L;

  private final ManualContext clock = new ManualContext();
  private final RecordingSink sink = new RecordingSink(clock);
  private final long start = clock.nanoTime();

  @Test
  void latency_backToBackChunks_eachDelayedFromItsOwnArrival() {
    ToxicChain chain = chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 100L)));

    chain.accept(chunk(3));
    clock.advance(Duration.ofMillis(10));
    chain.accept(chunk(3));
    clock.advance(Duration.ofMillis(200));

    assertThat(sink.deliveries())
        .extracting(d -> d.atNanos() - start)
        .containsExactly(100 * MS, 110 * MS);
  }

  @Test
  void latency_withJitter_keepsOrderAndStaysWithinBounds() {
    ToxicChain chain =
        chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 50L, "jitter", 40L)));
    for (int i = 0; i < 20; i++) {
      chain.accept(new Chunk(new byte[] {(byte) i}, clock.nanoTime()));
    }
    chain.end();

    clock.advance(Duration.ofMillis(200));

    assertThat(sink.bytes())
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
    assertThat(sink.deliveries())
        .allSatisfy(d -> assertThat(d.atNanos() - start).isBetween(10 * MS, 90 * MS));
    assertThat(sink.ended()).isTrue();
  }

  @Test
  void latency_withMillisecondJitter_drawsWholeMillisecondsAsToxiproxyDoes() {
    ToxicChain chain = chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 10L, "jitter", 3L)));
    for (int i = 0; i < 40; i++) {
      chain.accept(new Chunk(new byte[] {(byte) i}, clock.nanoTime()));
      clock.advance(Duration.ofMillis(20)); // each chunk alone, so its delay is its own draw
    }

    assertThat(sink.deliveries())
        .hasSize(40)
        .allSatisfy(d -> assertThat(d.atNanos() % MS).isZero());
    List<Long> delays = delaysOfSpacedChunks(20 * MS);
    assertThat(delays).allSatisfy(delay -> assertThat(delay).isBetween(7 * MS, 12 * MS));
    assertThat(delays).contains(7 * MS, 12 * MS); // both ends of U[-3, +3) in 40 draws
  }

  @Test
  void latency_withMicrosecondExtensions_delaysWithinMicrosecondBounds() {
    // 1 ms ± 0.2 ms, which the whole-millisecond attributes cannot express.
    ToxicChain chain =
        chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 1L, "jitter_us", 200L)));
    for (int i = 0; i < 100; i++) {
      chain.accept(new Chunk(new byte[] {(byte) i}, clock.nanoTime()));
      clock.advance(Duration.ofMillis(5));
    }

    List<Long> delays = delaysOfSpacedChunks(5 * MS);
    assertThat(delays)
        .hasSize(100)
        .allSatisfy(delay -> assertThat(delay).isBetween(800_000L, 1_199_999L));
    assertThat(delays).anySatisfy(delay -> assertThat(delay).isLessThan(900_000L));
    assertThat(delays).anySatisfy(delay -> assertThat(delay).isGreaterThan(1_100_000L));
  }

  @Test
  void latency_withLatencyMicros_addsThemToTheMilliseconds() {
    ToxicChain chain =
        chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 2L, "latency_us", 350L)));

    chain.accept(chunk(3));
    clock.advance(Duration.ofMillis(10));

    assertThat(sink.deliveries()).extracting(d -> d.atNanos() - start).containsExactly(2_350_000L);
  }

  /** The delay of each delivery, for chunks sent {@code spacing} apart from the start on. */
  private List<Long> delaysOfSpacedChunks(long spacing) {
    List<RecordingSink.Delivery> deliveries = sink.deliveries();
    return java.util.stream.IntStream.range(0, deliveries.size())
        .mapToObj(i -> deliveries.get(i).atNanos() - start - i * spacing)
        .toList();
  }

  @Test
  void latency_removed_flushesHeldDataAtOnce() {
    ToxicChain chain = chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 1_000L)));
    chain.accept(chunk(2));
    chain.accept(chunk(2));

    chain.remove("lat");

    assertThat(sink.bytes()).hasSize(4);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void bandwidth_chunkLargerThanTenthOfRate_sentInPiecesEvery100ms() {
    ToxicChain chain = chain(toxic("bw", ToxicType.BANDWIDTH, Map.of("rate", 10L)));

    chain.accept(chunk(3_000));
    clock.advance(Duration.ofMillis(400));

    assertThat(sink.deliveries())
        .extracting(d -> d.data().length)
        .containsExactly(1_000, 1_000, 1_000);
    assertThat(sink.deliveries())
        .extracting(d -> d.atNanos() - start)
        .containsExactly(100 * MS, 200 * MS, 300 * MS);
  }

  @Test
  void bandwidth_zeroRate_stallsUntilRemoved() {
    ToxicChain chain = chain(toxic("bw", ToxicType.BANDWIDTH, Map.of("rate", 0L)));
    chain.accept(chunk(10));
    clock.advance(Duration.ofSeconds(5));
    assertThat(sink.deliveries()).isEmpty();

    chain.remove("bw");

    assertThat(sink.bytes()).hasSize(10);
  }

  @Test
  void limitData_acrossChunksAndAnUpdate_cutsAtTotalAndCloses() {
    ToxicConfig limit = toxic("ld", ToxicType.LIMIT_DATA, Map.of("bytes", 10L));
    ToxicChain chain = chain(limit);

    chain.accept(chunk(4));
    chain.update(limit.merged(Map.of("bytes", 7L), null));
    chain.accept(chunk(5));

    assertThat(sink.bytes()).hasSize(7);
    assertThat(sink.ended()).isTrue();
  }

  @Test
  void timeout_eachChunkRestartsTimerThenCloses() {
    ToxicChain chain = chain(toxic("to", ToxicType.TIMEOUT, Map.of("timeout", 100L)));

    clock.advance(Duration.ofMillis(80));
    chain.accept(chunk(1));
    clock.advance(Duration.ofMillis(80));
    assertThat(sink.ended()).isFalse();
    clock.advance(Duration.ofMillis(30));

    assertThat(sink.deliveries()).isEmpty();
    assertThat(sink.endedAtNanos() - start).isEqualTo(180 * MS);
  }

  @Test
  void timeout_zeroRemoved_closes() {
    ToxicChain chain = chain(toxic("to", ToxicType.TIMEOUT, Map.of("timeout", 0L)));
    chain.accept(chunk(1));
    clock.advance(Duration.ofSeconds(10));
    assertThat(sink.ended()).isFalse();

    chain.remove("to");

    assertThat(sink.ended()).isTrue();
  }

  @Test
  void resetPeer_firstChunk_dropsItAndClosesAfterTimeout() {
    ToxicChain chain = chain(toxic("rp", ToxicType.RESET_PEER, Map.of("timeout", 50L)));

    chain.accept(chunk(1));
    clock.advance(Duration.ofMillis(100));

    assertThat(sink.deliveries()).isEmpty();
    assertThat(sink.endedAtNanos() - start).isEqualTo(50 * MS);
  }

  @Test
  void slowClose_end_isHeldForDelayWhileDataPasses() {
    ToxicChain chain = chain(toxic("sc", ToxicType.SLOW_CLOSE, Map.of("delay", 70L)));

    chain.accept(chunk(2));
    chain.end();
    clock.advance(Duration.ofMillis(100));

    assertThat(sink.deliveries())
        .singleElement()
        .extracting(RecordingSink.Delivery::atNanos)
        .isEqualTo(start);
    assertThat(sink.endedAtNanos() - start).isEqualTo(70 * MS);
  }

  @Test
  void slicer_chunk_piecesBoundedAndSpacedByDelayMicros() {
    ToxicChain chain =
        chain(
            toxic(
                "sl",
                ToxicType.SLICER,
                Map.of("average_size", 10L, "size_variation", 4L, "delay", 500L)));
    byte[] payload = new byte[1_000];
    new Random(3).nextBytes(payload);

    chain.accept(new Chunk(payload, clock.nanoTime()));
    clock.advance(Duration.ofSeconds(1));

    assertThat(sink.bytes()).isEqualTo(payload);
    assertThat(sink.deliveries())
        .hasSizeGreaterThan(50)
        .allSatisfy(d -> assertThat(d.data().length).isBetween(1, 14));
    List<RecordingSink.Delivery> pieces = sink.deliveries();
    assertThat(pieces.get(1).atNanos() - pieces.get(0).atNanos()).isEqualTo(500_000L);
  }

  @Test
  void toxicityZero_toxicNeverRuns() {
    ToxicConfig timeout =
        new ToxicConfig("to", ToxicType.TIMEOUT, Direction.DOWNSTREAM, 0f, Map.of());
    ToxicChain chain = chain(timeout);

    chain.accept(chunk(5));

    assertThat(sink.bytes()).hasSize(5);
  }

  @Test
  void add_afterLatency_newToxicSeesLaterData() {
    ToxicChain chain = chain(toxic("lat", ToxicType.LATENCY, Map.of("latency", 10L)));
    chain.add(toxic("ld", ToxicType.LIMIT_DATA, Map.of("bytes", 3L)));

    chain.accept(chunk(5));
    clock.advance(Duration.ofMillis(20));

    assertThat(sink.bytes()).hasSize(3);
    assertThat(sink.ended()).isTrue();
  }

  private ToxicChain chain(ToxicConfig... toxics) {
    return new ToxicChain(List.of(toxics), sink, clock);
  }

  private Chunk chunk(int length) {
    return new Chunk(new byte[length], clock.nanoTime());
  }

  private static ToxicConfig toxic(String name, ToxicType type, Map<String, Long> attributes) {
    return new ToxicConfig(name, type, Direction.DOWNSTREAM, 1f, attributes);
  }
}
