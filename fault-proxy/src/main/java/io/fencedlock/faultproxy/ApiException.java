package io.fencedlock.faultproxy;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An API failure with the status code and message Toxiproxy would send; it becomes the body {@code
 * {"error":"<message>","status":<status>}}. Immutable.
 */
final class ApiException extends RuntimeException {

  private final int status;
  private final @Nullable List<ProxyView> proxies;

  private ApiException(int status, String message, @Nullable List<ProxyView> proxies) {
    // No stack trace: these are expected outcomes, created on every bad request.
    super(message, null, false, false);
    this.status = status;
    this.proxies = proxies == null ? null : List.copyOf(proxies);
  }

  static ApiException of(int status, String message) {
    return new ApiException(status, message, null);
  }

  static ApiException badRequestBody(String detail) {
    return of(400, "bad request body: " + detail);
  }

  static ApiException missingField(String field) {
    return of(400, "missing required field: " + field);
  }

  static ApiException invalidStream() {
    return of(400, "stream was invalid, can be either upstream or downstream");
  }

  static ApiException invalidToxicType() {
    return of(400, "invalid toxic type");
  }

  static ApiException proxyNotFound() {
    return of(404, "proxy not found");
  }

  static ApiException toxicNotFound() {
    return of(404, "toxic not found");
  }

  static ApiException proxyExists() {
    return of(409, "proxy already exists");
  }

  static ApiException toxicExists() {
    return of(409, "toxic already exists");
  }

  static ApiException internal(String message) {
    return of(500, message);
  }

  /** The same error carrying the proxies /populate had already applied. */
  ApiException withProxies(List<ProxyView> applied) {
    return new ApiException(status, getMessage(), applied);
  }

  int status() {
    return status;
  }

  /** Proxies applied before a /populate error, or null for other endpoints. */
  @Nullable List<ProxyView> proxies() {
    return proxies;
  }
}
