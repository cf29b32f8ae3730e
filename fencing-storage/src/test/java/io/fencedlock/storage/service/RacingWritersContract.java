package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.WriteResult.Reason;
import io.fencedlock.storage.WriteResult.Rejected;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.Timing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many writers race on a few keys with overlapping random tokens, over real HTTP. The history the
 * clients saw must be one the accept rule allows: no accepted token lower than one accepted (or
 * reported) before it in real time, the final value is the highest token's, and the service's
 * counters match what clients were told.
 */
abstract class RacingWritersContract {
  private static final Logger log = LoggerFactory.getLogger(RacingWritersContract.class);
  private static final int THREADS = 8;
  private static final int OPS_PER_THREAD = 100;
  private static final int KEYS = 2;
  private static final int TOKEN_WINDOW = 12;

  private StorageService service;
  private FencedStorageClient client;

  /** One completed put, with client-side invoke and completion times. */
  record Op(
      String key,
      long token,
      String owner,
      String value,
      int seq,
      long invoked,
      long completed,
      WriteResult result) {}

  /** A JDBC URL of a new, empty database. */
  abstract String newDatabaseUrl();

  @BeforeEach
  final void startService() {
    service = StorageService.start(StorageConfig.builder().jdbcUrl(newDatabaseUrl()).build());
    client = FencedStorageClient.create(service.url());
  }

  @AfterEach
  final void stopService() {
    service.close();
  }

  @Test
  void put_racingWritersRandomTokens_historyObeysAcceptRule() throws Exception {
    long seed = System.nanoTime();
    log.info("racing writers seed {}", seed);
    List<Op> ops = runWriters(seed);

    Map<String, List<Op>> byKey = ops.stream().collect(Collectors.groupingBy(Op::key));
    for (Map.Entry<String, List<Op>> entry : byKey.entrySet()) {
      assertNoAcceptanceGoesBack(entry.getValue());
      assertFinalStateIsHighestAccepted(entry.getKey(), entry.getValue());
    }
    assertCountersMatch(ops);
  }

  private List<Op> runWriters(long seed) throws Exception {
    ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        writers.add(pool.submit(() -> write(thread, new Random(seed + thread), start, ops)));
      }
      start.countDown();
      for (Future<?> writer : writers) {
        writer.get(Timing.WORKLOAD.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new ArrayList<>(ops);
  }

  private Void write(int thread, Random random, CountDownLatch start, ConcurrentLinkedQueue<Op> ops)
      throws InterruptedException {
    String owner = String.format("%032x", thread + 1);
    start.await();
    for (int seq = 0; seq < OPS_PER_THREAD; seq++) {
      String key = "race-" + random.nextInt(KEYS);
      // Tokens drift upwards and overlap across threads: many accepts, stales and equal tokens.
      long token = 1 + seq + random.nextInt(TOKEN_WINDOW);
      String value = "thread" + thread + "-seq" + seq;
      long invoked = System.nanoTime();
      WriteResult result = client.put(key, value.getBytes(UTF_8), token, owner);
      ops.add(new Op(key, token, owner, value, seq, invoked, System.nanoTime(), result));
    }
    return null;
  }

  /**
   * If op A completed before op B was invoked, B may be accepted only with a token at least A's (A
   * accepted) or at least the high-water mark A was told about (A rejected).
   */
  private static void assertNoAcceptanceGoesBack(List<Op> ops) {
    List<String> violations = new ArrayList<>();
    for (Op later : ops) {
      if (!later.result().isAccepted()) {
        continue;
      }
      for (Op earlier : ops) {
        if (earlier.completed() < later.invoked() && contradicts(earlier, later)) {
          violations.add(earlier + " then " + later);
        }
      }
    }
    assertThat(violations).as("accepted writes that went back").isEmpty();
  }

  /** Whether accepting {@code later} contradicts what {@code earlier} established. */
  private static boolean contradicts(Op earlier, Op later) {
    if (earlier.result() instanceof Rejected rejected) {
      return later.token() < rejected.currentToken();
    }
    // After an accepted token t by owner o, only t by o or a higher token may be accepted.
    return later.token() < earlier.token()
        || (later.token() == earlier.token() && !later.owner().equals(earlier.owner()));
  }

  private void assertFinalStateIsHighestAccepted(String key, List<Op> ops) {
    List<Op> accepted = ops.stream().filter(op -> op.result().isAccepted()).toList();
    long highest = accepted.stream().mapToLong(Op::token).max().orElseThrow();
    List<Op> atHighest = accepted.stream().filter(op -> op.token() == highest).toList();
    assertThat(atHighest)
        .extracting(Op::owner)
        .as("owners of token %d", highest)
        .containsOnly(atHighest.get(0).owner());
    // One owner means one thread, whose own sequence orders its writes.
    Op last = atHighest.stream().max(Comparator.comparingInt(Op::seq)).orElseThrow();

    assertThat(client.get(key))
        .contains(new StoredObject(last.value().getBytes(UTF_8), highest, last.owner()));
    for (Op op : ops) {
      if (op.result() instanceof Rejected rejected) {
        assertThat(rejected.currentToken()).as("%s", op).isGreaterThanOrEqualTo(op.token());
        assertThat(rejected.reason())
            .as("%s", op)
            .isEqualTo(rejected.currentToken() == op.token() ? Reason.ALARM : Reason.STALE);
      }
    }
  }

  private void assertCountersMatch(List<Op> ops) {
    long accepted = ops.stream().filter(op -> op.result().isAccepted()).count();
    long stale = count(ops, Reason.STALE);
    long alarms = count(ops, Reason.ALARM);
    log.info("racing writers: {} accepted, {} stale, {} alarms", accepted, stale, alarms);

    assertThat(client.stats()).isEqualTo(new Stats(accepted, stale, alarms));
    assertThat(accepted).as("accepted").isPositive();
    assertThat(stale).as("stale").isPositive();
  }

  private static long count(List<Op> ops, Reason reason) {
    return ops.stream()
        .filter(op -> op.result() instanceof Rejected rejected && rejected.reason() == reason)
        .count();
  }
}
