package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.WriteResult.Rejected;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.storage.client.StorageClientException;
import io.fencedlock.testkit.support.Timing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the service process in the middle of a stream of writes and fences, then a restart on
 * the same database: every acknowledged write must still be there (or have been overtaken by a
 * higher token), and no object's highest token may have gone back.
 */
abstract class ServiceCrashContract {
  private static final int WRITERS = 4;
  private static final int KEYS = 6;
  private static final int ACKS_BEFORE_KILL = 200;
  private static final String PROBE_OWNER = "probe";

  @TempDir Path dir;

  /** One acknowledged (200) write or fence. */
  record Ack(String key, long token, boolean fence, String value) {}

  /** The {@code --db} argument for a new, empty database. */
  abstract String newDatabaseArgument(Path dir);

  @Test
  void killNine_midStream_acknowledgedWritesSurviveRestart() throws Exception {
    String db = newDatabaseArgument(dir);
    ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    AtomicInteger failedCalls = new AtomicInteger();
    try (ServiceProcess service = ServiceProcess.start(dir, "--port", "0", "--db", db)) {
      streamWritesAndKill(service, acks, failedCalls);
    }
    assertThat(acks).hasSizeGreaterThanOrEqualTo(ACKS_BEFORE_KILL);
    assertThat(failedCalls).as("writers that saw the service die").hasValue(WRITERS);

    try (ServiceProcess restarted = ServiceProcess.start(dir, "--port", "0", "--db", db)) {
      FencedStorageClient client = FencedStorageClient.create(restarted.url());
      for (int k = 0; k < KEYS; k++) {
        String key = key(k);
        List<Ack> keyAcks = acks.stream().filter(ack -> ack.key().equals(key)).toList();
        assertHighWaterNotBehind(client, key, keyAcks);
        assertLatestPutSurvived(client, key, keyAcks);
      }
    }
  }

  private void streamWritesAndKill(
      ServiceProcess service, ConcurrentLinkedQueue<Ack> acks, AtomicInteger failedCalls)
      throws Exception {
    FencedStorageClient client =
        new FencedStorageClient(service.url(), Duration.ofSeconds(2), Timing.AWAIT);
    AtomicLong tokens = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String owner = String.format("%032x", w + 1);
        writers.add(pool.submit(() -> write(client, owner, tokens, acks, failedCalls)));
      }
      await("acknowledged writes before the kill")
          .atMost(Timing.WORKLOAD)
          .until(() -> acks.size() >= ACKS_BEFORE_KILL);
      service.kill9();
      for (Future<?> writer : writers) {
        writer.get(Timing.PROCESS.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Writes until the service is gone; records what the service acknowledged. */
  private static void write(
      FencedStorageClient client,
      String owner,
      AtomicLong tokens,
      ConcurrentLinkedQueue<Ack> acks,
      AtomicInteger failedCalls) {
    while (true) {
      long token = tokens.incrementAndGet();
      String key = key((int) (token % KEYS));
      boolean fence = token % 4 == 0;
      String value = key + "/" + token;
      try {
        WriteResult result =
            fence
                ? client.fence(key, token, owner)
                : client.put(key, value.getBytes(UTF_8), token, owner);
        if (result.isAccepted()) {
          acks.add(new Ack(key, token, fence, value));
        }
      } catch (StorageClientException e) {
        // The service was killed under this call: its outcome is unknown, and we are done.
        failedCalls.incrementAndGet();
        return;
      }
    }
  }

  /** A fence with token 0 is always rejected once anything was accepted, reporting the mark. */
  private static void assertHighWaterNotBehind(
      FencedStorageClient client, String key, List<Ack> keyAcks) {
    long acknowledged = keyAcks.stream().mapToLong(Ack::token).max().orElse(0);
    WriteResult probe = client.fence(key, 0, PROBE_OWNER);
    if (acknowledged == 0) {
      return;
    }
    assertThat(probe).isInstanceOf(Rejected.class);
    assertThat(((Rejected) probe).currentToken())
        .as("high-water mark of %s after restart", key)
        .isGreaterThanOrEqualTo(acknowledged);
  }

  /** The value is the latest acknowledged put's, or that of a higher-token put in flight. */
  private static void assertLatestPutSurvived(
      FencedStorageClient client, String key, List<Ack> keyAcks) {
    Optional<Ack> latestPut =
        keyAcks.stream().filter(ack -> !ack.fence()).max(Comparator.comparingLong(Ack::token));
    if (latestPut.isEmpty()) {
      return;
    }
    StoredObject stored = client.get(key).orElseThrow(() -> new AssertionError(key + " lost"));
    String value = stored.valueAsUtf8();
    long valueToken = Long.parseLong(value.substring(value.indexOf('/') + 1));
    assertThat(valueToken)
        .as("token of %s's value", key)
        .isGreaterThanOrEqualTo(latestPut.get().token());
    if (valueToken == latestPut.get().token()) {
      assertThat(value).isEqualTo(latestPut.get().value());
    }
  }

  private static String key(int k) {
    return "crash-" + k;
  }
}
