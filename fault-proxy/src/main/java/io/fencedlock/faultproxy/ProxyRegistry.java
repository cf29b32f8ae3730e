package io.fencedlock.faultproxy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * All proxies by name, and the API's operations on them with Toxiproxy's validation order. Bodies
 * arrive as suppliers so that a 404 for the proxy wins over a malformed body, as it does in
 * Toxiproxy.
 *
 * <p>Not thread-safe: confined to the I/O loop thread (the API reaches it via {@link IoLoop#call}).
 */
final class ProxyRegistry {

  private final IoLoop loop;
  private final Map<String, Proxy> proxies = new TreeMap<>();

  ProxyRegistry(IoLoop loop) {
    this.loop = loop;
  }

  List<ProxyView> list() {
    return proxies.values().stream().map(Proxy::view).toList();
  }

  /** POST /proxies: 400 missing fields, 409 name taken, 500 bind failure (nothing added). */
  ProxyView create(ProxyRequest request) {
    request.requireNameAndUpstream("");
    if (proxies.containsKey(request.name())) {
      throw ApiException.proxyExists();
    }
    Proxy proxy = newProxy(request);
    if (!Boolean.FALSE.equals(request.enabled())) {
      proxy.start();
    }
    proxies.put(proxy.name(), proxy);
    return proxy.view();
  }

  ProxyView get(String name) {
    return require(name).view();
  }

  /** POST/PATCH /proxies/{name}: absent fields keep their values; the name cannot change. */
  ProxyView update(String name, Supplier<ProxyRequest> body) {
    Proxy proxy = require(name);
    ProxyRequest request = body.get();
    proxy.update(
        Objects.requireNonNullElse(request.listen(), proxy.listen()),
        Objects.requireNonNullElse(request.upstream(), proxy.upstream()),
        Objects.requireNonNullElse(request.enabled(), proxy.enabled()));
    return proxy.view();
  }

  void delete(String name) {
    require(name).stop();
    proxies.remove(name);
  }

  List<ToxicConfig> toxics(String proxyName) {
    return require(proxyName).toxics();
  }

  /** POST /proxies/{name}/toxics: 404, then the body's checks in {@link ToxicRequest} order. */
  ToxicConfig addToxic(String proxyName, Supplier<ToxicRequest> body) {
    Proxy proxy = require(proxyName);
    ToxicConfig toxic = body.get().toConfig(taken -> proxy.toxic(taken).isPresent());
    proxy.addToxic(toxic);
    return toxic;
  }

  ToxicConfig toxic(String proxyName, String toxicName) {
    return require(proxyName).toxic(toxicName).orElseThrow(ApiException::toxicNotFound);
  }

  /** POST/PATCH /proxies/{name}/toxics/{toxic}: merged attributes and toxicity. */
  ToxicConfig updateToxic(String proxyName, String toxicName, Supplier<ToxicPatch> body) {
    Proxy proxy = require(proxyName);
    ToxicConfig current = proxy.toxic(toxicName).orElseThrow(ApiException::toxicNotFound);
    ToxicConfig updated = body.get().applyTo(current);
    proxy.updateToxic(updated);
    return updated;
  }

  void removeToxic(String proxyName, String toxicName) {
    Proxy proxy = require(proxyName);
    proxy.removeToxic(proxy.toxic(toxicName).orElseThrow(ApiException::toxicNotFound));
  }

  /** POST /reset: re-enables every proxy and removes every toxic; stops at a bind failure. */
  void reset() {
    for (Proxy proxy : proxies.values()) {
      proxy.start();
      proxy.toxics().forEach(proxy::removeToxic);
    }
  }

  /**
   * POST /populate: validates every entry first, then adds or replaces them in order. An entry
   * whose resolved listen and upstream match the existing proxy leaves it untouched.
   *
   * @throws ApiException carrying the proxies applied before the failure
   */
  List<ProxyView> populate(List<ProxyRequest> requests) {
    validatePopulate(requests);
    List<ProxyView> applied = new ArrayList<>();
    for (ProxyRequest request : requests) {
      try {
        applied.add(addOrReplace(request).view());
      } catch (ApiException e) {
        throw e.withProxies(applied);
      }
    }
    return applied;
  }

  /** Stops every proxy; the server is shutting down. */
  void closeAll() {
    proxies.values().forEach(Proxy::stop);
    proxies.clear();
  }

  private void validatePopulate(List<ProxyRequest> requests) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < requests.size(); i++) {
      ProxyRequest request = requests.get(i);
      try {
        request.requireNameAndUpstream(" at proxy " + (i + 1));
      } catch (ApiException e) {
        throw e.withProxies(List.of());
      }
      if (!names.add(request.name())) {
        throw ApiException.internal("duplicate proxy name \"" + request.name() + "\"")
            .withProxies(List.of());
      }
    }
  }

  private Proxy addOrReplace(ProxyRequest request) {
    Proxy existing = proxies.get(request.name());
    if (existing != null) {
      if (sameAddresses(existing, request)) {
        return existing;
      }
      existing.stop();
    }
    Proxy proxy = newProxy(request);
    if (!Boolean.FALSE.equals(request.enabled())) {
      proxy.start();
    }
    proxies.put(proxy.name(), proxy);
    return proxy;
  }

  private static boolean sameAddresses(Proxy existing, ProxyRequest request) {
    if (!existing.upstream().equals(request.upstream())) {
      return false;
    }
    String listen = Objects.requireNonNullElse(request.listen(), "");
    try {
      return existing.listen().equals(listen)
          || existing.listen().equals(HostPort.canonical(listen));
    } catch (IllegalArgumentException e) {
      return false; // an unresolvable listen cannot match a running proxy's bound address
    }
  }

  private Proxy newProxy(ProxyRequest request) {
    return new Proxy(
        loop, request.name(), Objects.requireNonNullElse(request.listen(), ""), request.upstream());
  }

  private Proxy require(String name) {
    Proxy proxy = proxies.get(name);
    if (proxy == null) {
      throw ApiException.proxyNotFound();
    }
    return proxy;
  }
}
