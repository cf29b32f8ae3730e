package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult.Accepted;
import io.fencedlock.storage.WriteResult.Reason;
import io.fencedlock.storage.WriteResult.Rejected;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.RawHttp;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API of {@link StorageService} through {@link FencedStorageClient} (and raw HTTP where
 * the wire format itself is the subject), on a fresh database per test supplied by the subclass.
 */
abstract class StorageServiceContract {
  private static final String OWNER_A = "0123456789abcdef0123456789abcdef";
  private static final String OWNER_B = "fedcba9876543210fedcba9876543210";

  private String jdbcUrl;
  private StorageService service;
  private FencedStorageClient client;

  /** A JDBC URL of a new, empty database. */
  abstract String newDatabaseUrl();

  @BeforeEach
  final void startService() {
    jdbcUrl = newDatabaseUrl();
    startOn(jdbcUrl);
  }

  @AfterEach
  final void stopService() {
    service.close();
  }

  @Test
  void put_thenGet_returnsValueTokenAndOwner() {
    assertThat(client.put("k", bytes("v1"), 3, OWNER_A)).isEqualTo(new Accepted(3));

    assertThat(client.get("k")).contains(new StoredObject(bytes("v1"), 3, OWNER_A));
  }

  @Test
  void put_accepted_200JsonWithStoredToken() {
    RawHttp.Response response =
        raw().sendWithBody("PUT", "/objects/k", bytes("v1"), token(3), owner(OWNER_A));

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.headers().get("content-type")).startsWith("application/json");
    JsonObject json = json(response);
    assertThat(json.get("result").getAsString()).isEqualTo("accepted");
    assertThat(json.get("token").getAsLong()).isEqualTo(3);
    assertThat(json.get("owner").getAsString()).isEqualTo(OWNER_A);
  }

  @Test
  void put_lowerToken_409StaleWithCurrentTokenAndValueUnchanged() {
    client.put("k", bytes("v1"), 5, OWNER_A);

    RawHttp.Response response =
        raw().sendWithBody("PUT", "/objects/k", bytes("late"), token(4), owner(OWNER_B));

    assertThat(response.status()).isEqualTo(409);
    assertThat(json(response).get("currentToken").getAsLong()).isEqualTo(5);
    assertThat(json(response).get("reason").getAsString()).isEqualTo("STALE");
    assertThat(json(response).has("error")).isTrue();
    assertThat(client.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void put_equalTokenSameOwner_accepted() {
    client.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(client.put("k", bytes("v2"), 5, OWNER_A)).isEqualTo(new Accepted(5));
    assertThat(client.get("k")).contains(new StoredObject(bytes("v2"), 5, OWNER_A));
  }

  @Test
  void put_equalTokenOtherOwner_409AlarmCounted() {
    client.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(client.put("k", bytes("v2"), 5, OWNER_B)).isEqualTo(new Rejected(5, Reason.ALARM));
    assertThat(client.stats()).isEqualTo(new Stats(1, 0, 1));
    assertThat(client.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
  }

  @Test
  void fence_thenStalePut_rejectedAndValueKept() {
    client.put("k", bytes("v1"), 5, OWNER_A);

    assertThat(client.fence("k", 6, OWNER_B)).isEqualTo(new Accepted(6));
    assertThat(client.put("k", bytes("late"), 5, OWNER_A)).isEqualTo(new Rejected(6, Reason.STALE));
    assertThat(client.get("k")).contains(new StoredObject(bytes("v1"), 6, OWNER_B));
  }

  @Test
  void fence_thenPutSameTokenSameOwner_accepted() {
    assertThat(client.fence("k", 6, OWNER_B)).isEqualTo(new Accepted(6));

    assertThat(client.put("k", bytes("v"), 6, OWNER_B)).isEqualTo(new Accepted(6));
    assertThat(client.get("k")).contains(new StoredObject(bytes("v"), 6, OWNER_B));
  }

  @Test
  void fence_stale_409WithCurrentToken() {
    client.fence("k", 6, OWNER_B);

    RawHttp.Response response = raw().send("POST", "/objects/k/fence", token(2), owner(OWNER_A));

    assertThat(response.status()).isEqualTo(409);
    assertThat(json(response).get("currentToken").getAsLong()).isEqualTo(6);
  }

  @Test
  void get_onlyFenced_404Json() {
    client.fence("k", 6, OWNER_B);

    RawHttp.Response response = raw().send("GET", "/objects/k");

    assertThat(response.status()).isEqualTo(404);
    assertThat(json(response).get("error").getAsString()).isNotBlank();
    assertThat(client.get("k")).isEmpty();
  }

  @Test
  void get_absent_404Json() {
    RawHttp.Response response = raw().send("GET", "/objects/never");

    assertThat(response.status()).isEqualTo(404);
    assertThat(json(response).get("key").getAsString()).isEqualTo("never");
  }

  @Test
  void get_present_rawBytesWithTokenAndOwnerHeaders() {
    byte[] binary = {0, 1, (byte) 0xff, '\n', '{'};
    client.put("k", binary, 8, OWNER_A);

    RawHttp.Response response = raw().send("GET", "/objects/k");

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(binary);
    assertThat(response.headers()).containsEntry("fencing-token", "8");
    assertThat(response.headers()).containsEntry("lock-owner", OWNER_A);
  }

  @Test
  void put_emptyAndMaximalBodies_accepted() {
    byte[] maximal = new byte[StorageProtocol.MAX_VALUE_BYTES];
    Arrays.fill(maximal, (byte) 'x');

    assertThat(client.put("empty", new byte[0], 1, OWNER_A)).isEqualTo(new Accepted(1));
    assertThat(client.put("big", maximal, 1, OWNER_A)).isEqualTo(new Accepted(1));
    assertThat(client.get("empty")).contains(new StoredObject(new byte[0], 1, OWNER_A));
    assertThat(client.get("big")).contains(new StoredObject(maximal, 1, OWNER_A));
  }

  @Test
  void stats_mixedOutcomes_countsEach() {
    client.put("a", bytes("1"), 1, OWNER_A);
    client.fence("a", 2, OWNER_A);
    client.put("a", bytes("2"), 1, OWNER_A);
    client.fence("a", 1, OWNER_B);
    client.put("a", bytes("3"), 2, OWNER_B);

    assertThat(client.stats()).isEqualTo(new Stats(2, 2, 1));
  }

  @Test
  void health_databaseUp_200Json() {
    RawHttp.Response response = raw().send("GET", "/health");

    assertThat(response.status()).isEqualTo(200);
    assertThat(json(response).get("status").getAsString()).isEqualTo("ok");
    assertThat(client.isHealthy()).isTrue();
  }

  @Test
  void restart_onSameDatabase_keepsValuesAndHighWaterMarks() {
    client.put("k", bytes("v1"), 5, OWNER_A);
    client.fence("f", 9, OWNER_B);
    service.close();

    startOn(jdbcUrl);

    assertThat(client.get("k")).contains(new StoredObject(bytes("v1"), 5, OWNER_A));
    assertThat(client.fence("f", 8, OWNER_A)).isEqualTo(new Rejected(9, Reason.STALE));
  }

  private void startOn(String url) {
    service = StorageService.start(StorageConfig.builder().jdbcUrl(url).workerThreads(4).build());
    client = FencedStorageClient.create(service.url());
  }

  private RawHttp raw() {
    return new RawHttp(service.url());
  }

  private static String token(long token) {
    return StorageProtocol.TOKEN_HEADER + ": " + token;
  }

  private static String owner(String owner) {
    return StorageProtocol.OWNER_HEADER + ": " + owner;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static JsonObject json(RawHttp.Response response) {
    return JsonParser.parseString(response.bodyText()).getAsJsonObject();
  }
}
