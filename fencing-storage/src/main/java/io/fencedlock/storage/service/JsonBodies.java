package io.fencedlock.storage.service;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import java.nio.charset.StandardCharsets;

/**
 * The JSON bodies the service sends, as records, and their encoding. Field names here are the wire
 * format that {@link FencedStorageClient} reads. Thread-safe (Gson is).
 */
final class JsonBodies {
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private JsonBodies() {}

  /** 200 for an accepted write or fence. */
  record Accepted(String result, String key, long token, String owner) {
    Accepted(String key, long token, String owner) {
      this("accepted", key, token, owner);
    }
  }

  /** 409 for a rejected write or fence. */
  record Rejected(String error, String result, String reason, long currentToken, String key) {
    static Rejected of(String key, long token, WriteResult.Rejected rejected) {
      String error =
          rejected.reason() == WriteResult.Reason.STALE
              ? "stale fencing token " + token + " < " + rejected.currentToken()
              : "fencing token " + token + " already used by another owner";
      return new Rejected(
          error, "rejected", rejected.reason().name(), rejected.currentToken(), key);
    }
  }

  /** Any other error. */
  record Error(String error) {}

  /**
   * 503 for a request that provably changed nothing (refused for overload, skipped after waiting
   * too long for a store thread, or its store call gave up before committing), so, unlike a 503 for
   * a failing database, its outcome is known and retrying it is safe.
   */
  record NothingChanged(String error, boolean changed) {
    NothingChanged(String error) {
      this(error, false);
    }
  }

  /** 404 for an object without a value. */
  record NotFound(String error, String key) {}

  /** Health probe answer. */
  record Health(String status) {}

  static byte[] encode(Object body) {
    return GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
  }
}
