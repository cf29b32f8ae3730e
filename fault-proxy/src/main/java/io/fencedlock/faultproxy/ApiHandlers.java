package io.fencedlock.faultproxy;

import com.google.gson.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The endpoints: parse what can be parsed up front, run the operation on the I/O loop, shape the
 * response. Bodies whose errors must lose to a 404 are parsed on the loop, after the lookup.
 *
 * <p>Thread-safe: stateless apart from its collaborators; called from API threads.
 */
final class ApiHandlers {

  /** Slightly above Go's 25 s TimeoutHandler; the loop normally answers in microseconds. */
  private static final Duration LOOP_TIMEOUT = Duration.ofSeconds(30);

  static final String VERSION = "2.12.0-fencedlock";

  private final IoLoop loop;
  private final ProxyRegistry registry;

  ApiHandlers(IoLoop loop, ProxyRegistry registry) {
    this.loop = loop;
    this.registry = registry;
  }

  ApiResponse listProxies() {
    return ApiResponse.ok(JsonMapping.proxiesByName(onLoop(registry::list)));
  }

  ApiResponse createProxy(String body) {
    ProxyRequest request = JsonMapping.proxyRequest(body);
    return ApiResponse.created(JsonMapping.proxyJson(onLoop(() -> registry.create(request))));
  }

  ApiResponse populate(String body) {
    List<ProxyRequest> requests;
    try {
      requests = JsonMapping.populateRequest(body);
    } catch (ApiException e) {
      throw e.withProxies(List.of());
    }
    List<ProxyView> applied = onLoop(() -> registry.populate(requests));
    JsonObject json = new JsonObject();
    json.add("proxies", JsonMapping.proxyArray(applied));
    return ApiResponse.created(json);
  }

  ApiResponse getProxy(String name) {
    return ApiResponse.ok(JsonMapping.proxyJson(onLoop(() -> registry.get(name))));
  }

  ApiResponse updateProxy(String name, String body) {
    ProxyView proxy = onLoop(() -> registry.update(name, () -> JsonMapping.proxyRequest(body)));
    return ApiResponse.ok(JsonMapping.proxyJson(proxy));
  }

  ApiResponse deleteProxy(String name) {
    run(() -> registry.delete(name));
    return ApiResponse.noContent();
  }

  ApiResponse listToxics(String proxy) {
    return ApiResponse.ok(JsonMapping.toxicArray(onLoop(() -> registry.toxics(proxy))));
  }

  /** 200, not 201, as in Toxiproxy. */
  ApiResponse createToxic(String proxy, String body) {
    ToxicConfig toxic =
        onLoop(() -> registry.addToxic(proxy, () -> JsonMapping.toxicRequest(body)));
    return ApiResponse.ok(JsonMapping.toxicJson(toxic));
  }

  ApiResponse getToxic(String proxy, String toxic) {
    return ApiResponse.ok(JsonMapping.toxicJson(onLoop(() -> registry.toxic(proxy, toxic))));
  }

  ApiResponse updateToxic(String proxy, String toxic, String body) {
    ToxicConfig updated =
        onLoop(() -> registry.updateToxic(proxy, toxic, () -> JsonMapping.toxicPatch(body)));
    return ApiResponse.ok(JsonMapping.toxicJson(updated));
  }

  ApiResponse deleteToxic(String proxy, String toxic) {
    run(() -> registry.removeToxic(proxy, toxic));
    return ApiResponse.noContent();
  }

  ApiResponse reset() {
    run(registry::reset);
    return ApiResponse.noContent();
  }

  ApiResponse version() {
    JsonObject json = new JsonObject();
    json.addProperty("version", VERSION);
    return new ApiResponse(200, json, true);
  }

  private <T> T onLoop(Supplier<T> operation) {
    return loop.call(operation, LOOP_TIMEOUT);
  }

  private void run(Runnable operation) {
    loop.call(
        () -> {
          operation.run();
          return null;
        },
        LOOP_TIMEOUT);
  }
}
