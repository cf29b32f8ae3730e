package io.fencedlock.storage.service;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A request path resolved to an endpoint, with the raw key for object endpoints. The key is not
 * validated here, so that a wrong method is reported (405) before a bad key (400). Immutable.
 *
 * @param endpoint which endpoint
 * @param key the raw key segment, empty for endpoints without a key
 */
record Route(Endpoint endpoint, String key) {

  private static final String OBJECTS = "/objects/";
  private static final String FENCE_SUFFIX = "/fence";

  /** The endpoints and the methods each allows. */
  enum Endpoint {
    OBJECT(List.of("GET", "PUT")),
    FENCE(List.of("POST")),
    STATS(List.of("GET")),
    HEALTH(List.of("GET"));

    private final List<String> methods;

    Endpoint(List<String> methods) {
      this.methods = methods;
    }

    boolean allows(String method) {
      return methods.contains(method);
    }

    /** The endpoint's name in meters: {@code object_put}, {@code object_get}, {@code fence}... */
    String meterName(String method) {
      String name = name().toLowerCase(Locale.ROOT);
      // GET and PUT of an object are different work (a read, a fenced write): time them apart.
      return this == OBJECT && allows(method) ? name + "_" + method.toLowerCase(Locale.ROOT) : name;
    }

    /** The {@code Allow} header value. */
    String allowHeader() {
      return String.join(", ", methods);
    }
  }

  /**
   * Resolves a raw (still percent-encoded) path; empty for unknown paths. A percent-encoded key
   * stays encoded and is later refused as illegal, since '%' is not a key character.
   */
  static Optional<Route> parse(String rawPath) {
    if (rawPath == null) {
      return Optional.empty();
    }
    switch (rawPath) {
      case "/stats":
        return Optional.of(new Route(Endpoint.STATS, ""));
      case "/health":
        return Optional.of(new Route(Endpoint.HEALTH, ""));
      default:
        break;
    }
    if (!rawPath.startsWith(OBJECTS)) {
      return Optional.empty();
    }
    String rest = rawPath.substring(OBJECTS.length());
    if (rest.indexOf('/') < 0) {
      return Optional.of(new Route(Endpoint.OBJECT, rest));
    }
    if (rest.endsWith(FENCE_SUFFIX)) {
      String key = rest.substring(0, rest.length() - FENCE_SUFFIX.length());
      if (key.indexOf('/') < 0) {
        return Optional.of(new Route(Endpoint.FENCE, key));
      }
    }
    return Optional.empty();
  }
}
