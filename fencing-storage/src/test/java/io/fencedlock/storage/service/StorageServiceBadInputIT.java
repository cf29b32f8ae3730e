package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.RawHttp;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of bad request gets a 4xx with a JSON error and changes nothing. Requests go over a
 * raw socket, since a proper client refuses to send most of them. Each would, if wrongly accepted,
 * raise key {@code k} to token 11, which the state check would catch. Runs on SQLite only: request
 * validation happens before the store is touched.
 */
final class StorageServiceBadInputIT {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final String GOOD_TOKEN = StorageProtocol.TOKEN_HEADER + ": 11";
  private static final String GOOD_OWNER = StorageProtocol.OWNER_HEADER + ": " + OWNER;
  private static final StoredObject SEED = new StoredObject(bytes("seed"), 10, "seed-owner");

  @TempDir Path dir;
  private StorageService service;
  private FencedStorageClient client;

  /** One bad request and the status it must get. */
  record BadRequest(String name, String method, String path, int status, String... headers) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadRequest> badRequests() {
    return Stream.concat(badHeaders(), badPathsAndMethods());
  }

  private static Stream<BadRequest> badHeaders() {
    return Stream.of(
        new BadRequest("token missing", "PUT", "/objects/k", 400, GOOD_OWNER),
        new BadRequest("token not numeric", "PUT", "/objects/k", 400, token("abc"), GOOD_OWNER),
        new BadRequest("token negative", "PUT", "/objects/k", 400, token("-1"), GOOD_OWNER),
        new BadRequest("token with plus", "PUT", "/objects/k", 400, token("+11"), GOOD_OWNER),
        new BadRequest("token decimal", "PUT", "/objects/k", 400, token("11.0"), GOOD_OWNER),
        new BadRequest("token empty", "PUT", "/objects/k", 400, token(""), GOOD_OWNER),
        new BadRequest(
            "token overflow", "PUT", "/objects/k", 400, token("9223372036854775808"), GOOD_OWNER),
        new BadRequest(
            "token twice", "PUT", "/objects/k", 400, GOOD_TOKEN, token("12"), GOOD_OWNER),
        new BadRequest("owner missing", "PUT", "/objects/k", 400, GOOD_TOKEN),
        new BadRequest("owner blank", "PUT", "/objects/k", 400, GOOD_TOKEN, owner("   ")),
        new BadRequest("owner with space", "PUT", "/objects/k", 400, GOOD_TOKEN, owner("a b")),
        new BadRequest(
            "owner too long", "PUT", "/objects/k", 400, GOOD_TOKEN, owner("o".repeat(129))),
        new BadRequest("fence token missing", "POST", "/objects/k/fence", 400, GOOD_OWNER),
        new BadRequest(
            "fence token negative", "POST", "/objects/k/fence", 400, token("-5"), GOOD_OWNER),
        new BadRequest(
            "fence owner blank", "POST", "/objects/k/fence", 400, GOOD_TOKEN, owner("")));
  }

  private static Stream<BadRequest> badPathsAndMethods() {
    String longKey = "k".repeat(StorageProtocol.MAX_KEY_LENGTH + 1);
    return Stream.of(
        new BadRequest("key too long", "PUT", "/objects/" + longKey, 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("key encoded space", "PUT", "/objects/a%20b", 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("key slash encoded", "PUT", "/objects/a%2Fb", 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("key dot", "PUT", "/objects/.", 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("key dotdot", "GET", "/objects/..", 400),
        new BadRequest("key empty", "PUT", "/objects/", 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("fence key empty", "POST", "/objects//fence", 400, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest(
            "fence key too long",
            "POST",
            "/objects/" + longKey + "/fence",
            400,
            GOOD_TOKEN,
            GOOD_OWNER),
        new BadRequest("DELETE object", "DELETE", "/objects/k", 405, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("POST object", "POST", "/objects/k", 405, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("PUT fence", "PUT", "/objects/k/fence", 405, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("GET fence", "GET", "/objects/k/fence", 405),
        new BadRequest("POST stats", "POST", "/stats", 405),
        new BadRequest("PUT health", "PUT", "/health", 405),
        new BadRequest("root", "GET", "/", 404),
        new BadRequest("objects without key", "PUT", "/objects", 404, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("nested key", "PUT", "/objects/a/b", 404, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("unknown action", "POST", "/objects/k/unfence", 404, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest(
            "fence with tail", "POST", "/objects/k/fence/x", 404, GOOD_TOKEN, GOOD_OWNER),
        new BadRequest("stats with slash", "GET", "/stats/", 404),
        new BadRequest("unknown", "GET", "/admin", 404));
  }

  @BeforeEach
  void startAndSeed() {
    service =
        StorageService.start(
            StorageConfig.builder().jdbcUrl("jdbc:sqlite:" + dir.resolve("bad.db")).build());
    client = FencedStorageClient.create(service.url());
    client.put("k", SEED.value(), SEED.token(), SEED.owner());
  }

  @AfterEach
  void stop() {
    service.close();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void request_badInput_4xxJsonErrorAndStateUnchanged(BadRequest bad) {
    RawHttp.Response response =
        raw().sendWithBody(bad.method(), bad.path(), bytes("evil"), bad.headers());

    assertThat(response.status()).as(bad.name()).isEqualTo(bad.status());
    assertJsonError(response);
    if (bad.status() == 405) {
      assertThat(response.headers()).containsKey("allow");
    }
    assertStateUnchanged();
  }

  @Test
  void request_wrongMethod_allowHeaderListsMethods() {
    assertThat(raw().send("DELETE", "/objects/k").headers()).containsEntry("allow", "GET, PUT");
    assertThat(raw().send("GET", "/objects/k/fence").headers()).containsEntry("allow", "POST");
    assertThat(raw().send("POST", "/stats").headers()).containsEntry("allow", "GET");
  }

  @Test
  void put_bodyOneByteOverLimit_413AndStateUnchanged() {
    byte[] body = new byte[StorageProtocol.MAX_VALUE_BYTES + 1];

    RawHttp.Response response =
        raw().sendWithBody("PUT", "/objects/k", body, GOOD_TOKEN, GOOD_OWNER);

    assertThat(response.status()).isEqualTo(413);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_bodyFarOverLimitSentInFull_clientStillReads413() {
    // The server answers on the declared length and closes with the body unread, which resets
    // the connection under a client still sending; the 413 must still be there to read.
    byte[] body = new byte[16 * StorageProtocol.MAX_VALUE_BYTES];

    RawHttp.Response response =
        raw().sendWithBody("PUT", "/objects/k", body, GOOD_TOKEN, GOOD_OWNER);

    assertThat(response.status()).isEqualTo(413);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_hugeDeclaredLength_413WithoutReadingBody() {
    // Nothing but the head is sent: a server that tried to read 10 GB would hang here.
    RawHttp.Response response =
        raw().send("PUT", "/objects/k", GOOD_TOKEN, GOOD_OWNER, "Content-Length: 10000000000");

    assertThat(response.status()).isEqualTo(413);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_chunkedBodyOverLimit_413AndStateUnchanged() {
    byte[] body = RawHttp.chunked(new byte[StorageProtocol.MAX_VALUE_BYTES + 10]);

    RawHttp.Response response =
        raw()
            .send(
                "PUT",
                "/objects/k",
                new String[] {GOOD_TOKEN, GOOD_OWNER, "Transfer-Encoding: chunked"},
                body);

    assertThat(response.status()).isEqualTo(413);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_headersOver8KiB_431JsonAndStateUnchanged() {
    RawHttp.Response response =
        raw()
            .sendWithBody(
                "PUT",
                "/objects/k",
                bytes("evil"),
                GOOD_TOKEN,
                GOOD_OWNER,
                "X-Padding: " + "p".repeat(9 * 1024));

    assertThat(response.status()).isEqualTo(431);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_requestLineOver8KiB_414JsonAndStateUnchanged() {
    RawHttp.Response response =
        raw()
            .sendWithBody(
                "PUT", "/objects/k?" + "q".repeat(9 * 1024), bytes("evil"), GOOD_TOKEN, GOOD_OWNER);

    assertThat(response.status()).isEqualTo(414);
    assertJsonError(response);
    assertStateUnchanged();
  }

  @Test
  void put_chunkedBodyWithinLimit_accepted() {
    RawHttp.Response response =
        raw()
            .send(
                "PUT",
                "/objects/k",
                new String[] {GOOD_TOKEN, GOOD_OWNER, "Transfer-Encoding: chunked"},
                RawHttp.chunked(bytes("chunky")));

    assertThat(response.status()).isEqualTo(200);
    assertThat(client.get("k")).contains(new StoredObject(bytes("chunky"), 11, OWNER));
  }

  private void assertJsonError(RawHttp.Response response) {
    assertThat(response.headers().get("content-type")).startsWith("application/json");
    assertThat(json(response).get("error").getAsString()).isNotBlank();
  }

  private void assertStateUnchanged() {
    assertThat(client.get("k")).contains(SEED);
    assertThat(client.stats()).isEqualTo(new Stats(1, 0, 0));
    assertThat(client.isHealthy()).isTrue();
  }

  private RawHttp raw() {
    return new RawHttp(service.url());
  }

  private static String token(String value) {
    return StorageProtocol.TOKEN_HEADER + ": " + value;
  }

  private static String owner(String value) {
    return StorageProtocol.OWNER_HEADER + ": " + value;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static JsonObject json(RawHttp.Response response) {
    return JsonParser.parseString(response.bodyText()).getAsJsonObject();
  }
}
