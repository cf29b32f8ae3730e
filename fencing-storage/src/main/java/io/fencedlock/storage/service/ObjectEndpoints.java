package io.fencedlock.storage.service;

import com.sun.net.httpserver.HttpExchange;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code /objects/...} endpoints: validate the request completely, then make exactly one store
 * call, then answer. Nothing reaches the store unless the whole request is valid, so bad input
 * never changes state. Thread-safe if the store is.
 */
final class ObjectEndpoints {
  private static final Logger log = LoggerFactory.getLogger(ObjectEndpoints.class);

  private final FencedStore store;
  private final WriteCounters counters;

  ObjectEndpoints(FencedStore store, WriteCounters counters) {
    this.store = store;
    this.counters = counters;
  }

  /** {@code PUT /objects/{key}}. */
  void put(HttpExchange exchange, String rawKey) throws IOException {
    String key = validKey(rawKey);
    WriteHeaders headers = WriteHeaders.parse(exchange.getRequestHeaders());
    byte[] value = BoundedBody.read(exchange, StorageProtocol.MAX_VALUE_BYTES);
    WriteResult result = store.put(key, value, headers.token(), headers.owner());
    answerWrite(exchange, key, headers, result);
  }

  /** {@code POST /objects/{key}/fence}; any body is ignored. */
  void fence(HttpExchange exchange, String rawKey) throws IOException {
    String key = validKey(rawKey);
    WriteHeaders headers = WriteHeaders.parse(exchange.getRequestHeaders());
    WriteResult result = store.fence(key, headers.token(), headers.owner());
    answerWrite(exchange, key, headers, result);
  }

  /** {@code GET /objects/{key}}. */
  void get(HttpExchange exchange, String rawKey) throws IOException {
    String key = validKey(rawKey);
    Optional<StoredObject> found = store.get(key);
    if (found.isEmpty()) {
      HttpResponses.json(exchange, 404, new JsonBodies.NotFound("no value for key", key));
      return;
    }
    StoredObject object = found.get();
    exchange.getResponseHeaders().set(StorageProtocol.TOKEN_HEADER, Long.toString(object.token()));
    exchange.getResponseHeaders().set(StorageProtocol.OWNER_HEADER, object.owner());
    HttpResponses.bytes(exchange, object.value());
  }

  private void answerWrite(
      HttpExchange exchange, String key, WriteHeaders headers, WriteResult result)
      throws IOException {
    counters.record(result);
    if (result instanceof WriteResult.Accepted accepted) {
      HttpResponses.json(
          exchange, 200, new JsonBodies.Accepted(key, accepted.token(), headers.owner()));
      return;
    }
    WriteResult.Rejected rejected = (WriteResult.Rejected) result;
    if (rejected.reason() == WriteResult.Reason.ALARM) {
      log.warn(
          "ALARM: token {} for key {} used by owner {} and by another owner",
          headers.token(),
          key,
          headers.owner());
    }
    HttpResponses.json(exchange, 409, JsonBodies.Rejected.of(key, headers.token(), rejected));
  }

  private static String validKey(String rawKey) {
    if (!StorageProtocol.isValidKey(rawKey)) {
      throw HttpProblem.badRequest(
          "illegal key: use 1-"
              + StorageProtocol.MAX_KEY_LENGTH
              + " characters of [A-Za-z0-9._:-], not . or ..");
    }
    return rawKey;
  }
}
