package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * More concurrent writers than the service admits, on one object: every request gets its normal
 * answer (200 or 409) or a 503 with {@code Retry-After} that says nothing changed, none hangs, and
 * the object ends as the accepted writes, applied in token order, leave it. The database's write
 * lock, held from a second connection, makes the store slow for real where a test needs the queue
 * full at a known moment.
 */
abstract class OverloadContract {
  private static final Logger log = LoggerFactory.getLogger(OverloadContract.class);
  static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final int WRITERS = 64;
  private static final int WRITES_PER_WRITER = 20;

  /** Short, so that a test's clients outwait it; not scaled, it is the behaviour under test. */
  static final Duration QUEUE_TIMEOUT = Duration.ofMillis(300);

  /** A client that gives up: longer than {@link #QUEUE_TIMEOUT} on any machine. */
  static final Duration IMPATIENT_CLIENT = Timing.scaled(Duration.ofSeconds(1));

  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  StorageService service;
  String jdbcUrl;

  /** A JDBC URL of a new, empty database. */
  abstract String newDatabaseUrl();

  /** One answered write: its token and the response. */
  record Outcome(long token, int status, String retryAfter, String body) {}

  @AfterEach
  final void stopService() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void put_moreWritersThanAdmitted_eachAnsweredOr503AndFinalStateIsHighestAccepted()
      throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    start(2, 4, meters);
    List<Outcome> outcomes = runWriters();

    List<Outcome> accepted = withStatus(outcomes, 200);
    List<Outcome> stale = withStatus(outcomes, 409);
    List<Outcome> refused = withStatus(outcomes, 503);
    log.info(
        "{} writes: {} accepted, {} stale, {} refused with 503",
        outcomes.size(),
        accepted.size(),
        stale.size(),
        refused.size());
    assertThat(outcomes).hasSize(WRITERS * WRITES_PER_WRITER);
    assertThat(outcomes).extracting(Outcome::status).containsOnly(200, 409, 503);
    assertThat(accepted).as("accepted").isNotEmpty();
    assertThat(refused).as("refused with 503").isNotEmpty();
    assertThat(refused).allSatisfy(OverloadContract::assertNothingChangedAnswer);
    assertThat(meters.get(ServiceMetrics.OVERLOADS).counter().count()).isEqualTo(refused.size());

    long highest = accepted.stream().mapToLong(Outcome::token).max().orElseThrow();
    FencedStorageClient client = FencedStorageClient.create(service.url());
    assertThat(client.get("hot")).contains(new StoredObject(value(highest), highest, OWNER));
    // A 503 never reached the store: the store counted exactly the 200s and 409s.
    assertThat(client.stats()).isEqualTo(new Stats(accepted.size(), stale.size(), 0));
  }

  void start(int threads, int queue, SimpleMeterRegistry meters) {
    start(threads, queue, meters, StorageConfig.DEFAULT_QUEUE_TIMEOUT);
  }

  void start(int threads, int queue, SimpleMeterRegistry meters, Duration queueTimeout) {
    jdbcUrl = newDatabaseUrl();
    service =
        StorageService.start(
            StorageConfig.builder()
                .jdbcUrl(jdbcUrl)
                .workerThreads(threads)
                .queueCapacity(queue)
                .queueTimeout(queueTimeout)
                .storeTimeouts(PatientStore.TIMEOUTS)
                .meterRegistry(meters)
                .build());
  }

  private List<Outcome> runWriters() throws Exception {
    ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    AtomicLong tokens = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        writers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < WRITES_PER_WRITER; i++) {
                    outcomes.add(put("hot", tokens.incrementAndGet()));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> writer : writers) {
        writer.get(Timing.WORKLOAD.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new ArrayList<>(outcomes);
  }

  Outcome put(String key, long token) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(request(key, token), HttpResponse.BodyHandlers.ofString());
    return new Outcome(
        token,
        response.statusCode(),
        response.headers().firstValue("Retry-After").orElse(null),
        response.body());
  }

  CompletableFuture<HttpResponse<String>> putAsync(String key, long token) {
    return http.sendAsync(request(key, token), HttpResponse.BodyHandlers.ofString());
  }

  /** Every request is bounded: a hung one fails the test instead of hanging it. */
  HttpRequest request(String key, long token) {
    return request(key, token, Timing.AWAIT);
  }

  HttpRequest request(String key, long token, Duration timeout) {
    return HttpRequest.newBuilder(URI.create(service.url() + "/objects/" + key))
        .timeout(timeout)
        .header(StorageProtocol.TOKEN_HEADER, Long.toString(token))
        .header(StorageProtocol.OWNER_HEADER, OWNER)
        .PUT(HttpRequest.BodyPublishers.ofByteArray(value(token)))
        .build();
  }

  static void assertNothingChangedAnswer(Outcome outcome) {
    assertThat(outcome.status()).isEqualTo(503);
    assertThat(outcome.retryAfter()).as("Retry-After").isEqualTo("1");
    JsonObject json = JsonParser.parseString(outcome.body()).getAsJsonObject();
    assertThat(json.get("error").getAsString()).contains("nothing was changed");
    assertThat(json.get("changed").getAsBoolean()).isFalse();
  }

  private static List<Outcome> withStatus(List<Outcome> outcomes, int status) {
    return outcomes.stream().filter(o -> o.status() == status).toList();
  }

  static byte[] value(long token) {
    return ("value-" + token).getBytes(UTF_8);
  }
}
