package io.fencedlock.storage.service;

import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code /objects/...} endpoints: validate the request completely, then make exactly one store
 * call on a store thread, then answer. Nothing reaches the store unless the whole request (body
 * included) is valid and admitted, so bad input and refused requests never change state.
 * Thread-safe if the store is.
 */
final class ObjectEndpoints {
  private static final Logger log = LoggerFactory.getLogger(ObjectEndpoints.class);

  private final FencedStore store;
  private final StoreWorkers workers;
  private final WriteCounters counters;
  private final ServiceMetrics metrics;
  private final Duration bodyTimeout;
  private final Scheduler scheduler;

  ObjectEndpoints(
      FencedStore store,
      StoreWorkers workers,
      WriteCounters counters,
      ServiceMetrics metrics,
      Duration bodyTimeout,
      Scheduler scheduler) {
    this.store = store;
    this.workers = workers;
    this.counters = counters;
    this.metrics = metrics;
    this.bodyTimeout = bodyTimeout;
    this.scheduler = scheduler;
  }

  /** {@code PUT /objects/{key}}. */
  CompletableFuture<Void> put(Exchange exchange, String rawKey) {
    String key = validKey(rawKey);
    WriteHeaders headers = WriteHeaders.parse(exchange.request().getHeaders());
    return BodyReader.read(
            exchange.request(), StorageProtocol.MAX_VALUE_BYTES, bodyTimeout, scheduler)
        .thenCompose(
            value ->
                workers.submit(
                    exchange::connectionOpen,
                    () -> store.put(key, value, headers.token(), headers.owner())))
        .thenAccept(result -> answerWrite(exchange, "put", key, headers, result));
  }

  /** {@code POST /objects/{key}/fence}; any body is ignored. */
  CompletableFuture<Void> fence(Exchange exchange, String rawKey) {
    String key = validKey(rawKey);
    WriteHeaders headers = WriteHeaders.parse(exchange.request().getHeaders());
    return workers
        .submit(exchange::connectionOpen, () -> store.fence(key, headers.token(), headers.owner()))
        .thenAccept(result -> answerWrite(exchange, "fence", key, headers, result));
  }

  /** {@code GET /objects/{key}}. */
  CompletableFuture<Void> get(Exchange exchange, String rawKey) {
    String key = validKey(rawKey);
    return workers
        .submit(exchange::connectionOpen, () -> store.get(key))
        .thenAccept(found -> answerGet(exchange, key, found));
  }

  private static void answerGet(Exchange exchange, String key, Optional<StoredObject> found) {
    if (found.isEmpty()) {
      exchange.json(404, new JsonBodies.NotFound("no value for key", key));
      return;
    }
    StoredObject object = found.get();
    exchange.bytes(
        object.value(),
        Map.of(
            StorageProtocol.TOKEN_HEADER, Long.toString(object.token()),
            StorageProtocol.OWNER_HEADER, object.owner()));
  }

  private void answerWrite(
      Exchange exchange, String operation, String key, WriteHeaders headers, WriteResult result) {
    counters.record(result);
    metrics.write(operation, result);
    if (result instanceof WriteResult.Accepted accepted) {
      exchange.json(200, new JsonBodies.Accepted(key, accepted.token(), headers.owner()));
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
    exchange.json(409, JsonBodies.Rejected.of(key, headers.token(), rejected));
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
