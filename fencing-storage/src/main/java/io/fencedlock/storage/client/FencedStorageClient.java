package io.fencedlock.storage.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.Stats;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Blocking client for a fenced storage service (see {@link StorageProtocol}).
 *
 * <p>A rejected write is a {@link WriteResult.Rejected} result, not an exception. Transport errors,
 * timeouts and unexpected statuses throw {@link StorageClientException} (or its subclass {@link
 * StorageTimeoutException}); arguments that the service would refuse throw {@link
 * IllegalArgumentException} before anything is sent. Thread-safe: share one instance.
 *
 * <p>A {@link FencedStore}: the service applies each call to its own {@code JdbcFencedStore} and
 * answers once the change is durable, so the contract is the same, over HTTP.
 */
public final class FencedStorageClient implements FencedStore {

  /** Time allowed to open a connection. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /** Time allowed for a whole request and its response. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final URI baseUrl;
  private final Duration requestTimeout;
  private final HttpClient http;

  /**
   * Creates a client.
   *
   * @param baseUrl e.g. {@code http://127.0.0.1:8080}, as printed by the service
   * @throws IllegalArgumentException if a timeout is not positive
   */
  public FencedStorageClient(URI baseUrl, Duration connectTimeout, Duration requestTimeout) {
    this.baseUrl = URI.create(Objects.requireNonNull(baseUrl, "baseUrl").toString() + "/");
    this.requestTimeout = positive(requestTimeout, "requestTimeout");
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(positive(connectTimeout, "connectTimeout"))
            .build();
  }

  /** Creates a client with the default timeouts. */
  public static FencedStorageClient create(URI baseUrl) {
    return new FencedStorageClient(baseUrl, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * Writes {@code value} under {@code key} if the token is accepted.
   *
   * @throws IllegalArgumentException for an illegal key, owner, negative token or a value over
   *     {@link StorageProtocol#MAX_VALUE_BYTES}
   * @throws StorageClientException on transport errors, timeouts or unexpected statuses
   */
  @Override
  public WriteResult put(String key, byte[] value, long token, String owner) {
    Objects.requireNonNull(value, "value");
    if (value.length > StorageProtocol.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value larger than " + StorageProtocol.MAX_VALUE_BYTES);
    }
    HttpRequest request =
        fenced(objectUri(key), token, owner)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(value.clone()))
            .build();
    return writeResult(send(request));
  }

  /**
   * Raises the object's highest token to {@code token} without writing a value.
   *
   * @throws IllegalArgumentException for an illegal key, owner or a negative token
   * @throws StorageClientException on transport errors, timeouts or unexpected statuses
   */
  @Override
  public WriteResult fence(String key, long token, String owner) {
    URI uri = baseUrl.resolve("objects/" + StorageProtocol.requireValidKey(key) + "/fence");
    HttpRequest request =
        fenced(uri, token, owner).POST(HttpRequest.BodyPublishers.noBody()).build();
    return writeResult(send(request));
  }

  /**
   * Reads an object; empty if no value was ever written (even if it was fenced).
   *
   * @throws IllegalArgumentException for an illegal key
   * @throws StorageClientException on transport errors, timeouts or unexpected statuses, including
   *     a 404 that is not the service's answer for this key (a base URL with a wrong path, say)
   */
  @Override
  public Optional<StoredObject> get(String key) {
    HttpResponse<byte[]> response = send(request(objectUri(key)).GET().build());
    if (response.statusCode() == 404 && isNoValueFor(key, response)) {
      return Optional.empty();
    }
    expect(response, 200);
    long token = parseTokenHeader(response);
    String owner =
        response
            .headers()
            .firstValue(StorageProtocol.OWNER_HEADER)
            .orElseThrow(() -> malformed(response, "no " + StorageProtocol.OWNER_HEADER));
    return Optional.of(new StoredObject(response.body(), token, owner));
  }

  /**
   * Reads the service's counters.
   *
   * @throws StorageClientException on transport errors, timeouts or unexpected statuses
   */
  public Stats stats() {
    HttpResponse<byte[]> response = send(request(baseUrl.resolve("stats")).GET().build());
    expect(response, 200);
    JsonObject json = json(response);
    return new Stats(
        longField(response, json, "accepted"),
        longField(response, json, "rejectedStale"),
        longField(response, json, "alarms"));
  }

  /** Returns whether the service answers its health check with 200; never throws. */
  @Override
  public boolean isHealthy() {
    try {
      return send(request(baseUrl.resolve("health")).GET().build()).statusCode() == 200;
    } catch (StorageClientException e) {
      // A probe: an unreachable or failing service is simply not healthy.
      return false;
    }
  }

  /**
   * Does nothing: the client holds no connection that needs closing (the JDK's HTTP client releases
   * idle ones by itself), so it stays usable. Idempotent.
   */
  @Override
  public void close() {
    // nothing to release; see above
  }

  /** The base URL this client talks to, with a trailing slash. */
  public URI baseUrl() {
    return baseUrl;
  }

  private URI objectUri(String key) {
    return baseUrl.resolve("objects/" + StorageProtocol.requireValidKey(key));
  }

  private HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(requestTimeout);
  }

  private HttpRequest.Builder fenced(URI uri, long token, String owner) {
    return request(uri)
        .header(
            StorageProtocol.TOKEN_HEADER, Long.toString(StorageProtocol.requireValidToken(token)))
        .header(StorageProtocol.OWNER_HEADER, StorageProtocol.requireValidOwner(owner));
  }

  private HttpResponse<byte[]> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      throw new StorageTimeoutException(describe(request) + " timed out", e);
    } catch (IOException e) {
      throw new StorageClientException(describe(request) + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageClientException(describe(request) + " interrupted", e);
    }
  }

  private WriteResult writeResult(HttpResponse<byte[]> response) {
    if (response.statusCode() == 200) {
      return new WriteResult.Accepted(longField(response, json(response), "token"));
    }
    expect(response, 409);
    JsonObject json = json(response);
    long current = longField(response, json, "currentToken");
    String reason = stringField(response, json, "reason");
    try {
      return new WriteResult.Rejected(current, WriteResult.Reason.valueOf(reason));
    } catch (IllegalArgumentException e) {
      throw malformed(response, "unknown reason " + reason);
    }
  }

  /**
   * Whether a 404 is the service's "no value" for {@code key}, which names the key, rather than a
   * 404 for a path it does not serve (a wrong base URL), which must not read as an empty object.
   */
  private static boolean isNoValueFor(String key, HttpResponse<byte[]> response) {
    try {
      JsonElement named = JsonParser.parseString(bodyText(response)).getAsJsonObject().get("key");
      return named != null && named.isJsonPrimitive() && key.equals(named.getAsString());
    } catch (JsonParseException | IllegalStateException e) {
      return false;
    }
  }

  private static long parseTokenHeader(HttpResponse<byte[]> response) {
    String text =
        response
            .headers()
            .firstValue(StorageProtocol.TOKEN_HEADER)
            .orElseThrow(() -> malformed(response, "no " + StorageProtocol.TOKEN_HEADER));
    try {
      return StorageProtocol.parseToken(text);
    } catch (IllegalArgumentException e) {
      throw malformed(response, "bad " + StorageProtocol.TOKEN_HEADER + " " + text);
    }
  }

  private static void expect(HttpResponse<byte[]> response, int status) {
    if (response.statusCode() != status) {
      throw new StorageClientException(
          describe(response.request())
              + " answered "
              + response.statusCode()
              + ": "
              + bodyText(response),
          response.statusCode());
    }
  }

  private static JsonObject json(HttpResponse<byte[]> response) {
    try {
      return JsonParser.parseString(bodyText(response)).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      throw malformed(response, "body is not a JSON object");
    }
  }

  private static long longField(HttpResponse<byte[]> response, JsonObject json, String name) {
    JsonElement element = json.get(name);
    try {
      return element.getAsLong();
    } catch (RuntimeException e) {
      throw malformed(response, "field " + name + " is not a number");
    }
  }

  private static String stringField(HttpResponse<byte[]> response, JsonObject json, String name) {
    JsonElement element = json.get(name);
    if (element == null || !element.isJsonPrimitive()) {
      throw malformed(response, "field " + name + " is missing");
    }
    return element.getAsString();
  }

  private static StorageClientException malformed(HttpResponse<byte[]> response, String what) {
    return new StorageClientException(
        describe(response.request())
            + " got a malformed response ("
            + what
            + "): "
            + bodyText(response),
        response.statusCode());
  }

  private static String bodyText(HttpResponse<byte[]> response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static String describe(HttpRequest request) {
    return request.method() + " " + request.uri();
  }

  private static Duration positive(Duration duration, String name) {
    if (Objects.requireNonNull(duration, name).isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + duration);
    }
    return duration;
  }
}
