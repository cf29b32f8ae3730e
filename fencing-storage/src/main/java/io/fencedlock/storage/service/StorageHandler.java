package io.fencedlock.storage.service;

import io.fencedlock.storage.FencedStore;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The service's Jetty handler: resolves the route, checks the method, dispatches, and hands every
 * early end to {@link Failures}. It never blocks: bodies are read as they arrive and store calls
 * run on {@link StoreWorkers}, so a slow client or a slow database holds no HTTP thread.
 * Thread-safe.
 */
final class StorageHandler extends Handler.Abstract.NonBlocking {
  private final ObjectEndpoints objects;
  private final FencedStore store;
  private final StoreWorkers workers;
  private final WriteCounters counters;
  private final ServiceMetrics metrics;
  private final Failures failures;

  StorageHandler(
      ObjectEndpoints objects,
      FencedStore store,
      StoreWorkers workers,
      WriteCounters counters,
      ServiceMetrics metrics,
      Failures failures) {
    this.objects = objects;
    this.store = store;
    this.workers = workers;
    this.counters = counters;
    this.metrics = metrics;
    this.failures = failures;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Exchange exchange = new Exchange(request, response, callback, metrics);
    String endpoint = "unknown";
    try {
      Route route =
          Route.parse(request.getHttpURI().getPath())
              .orElseThrow(() -> HttpProblem.notFound("no such endpoint"));
      String method = request.getMethod();
      endpoint = route.endpoint().meterName(method);
      exchange.endpoint(endpoint);
      if (!route.endpoint().allows(method)) {
        throw HttpProblem.methodNotAllowed(method, route.endpoint().allowHeader());
      }
      String failedEndpoint = endpoint;
      dispatch(exchange, route, method)
          .whenComplete(
              (done, failure) -> {
                if (failure != null) {
                  failures.answer(exchange, failedEndpoint, failure);
                }
              });
    } catch (RuntimeException e) {
      failures.answer(exchange, endpoint, e);
    }
    return true;
  }

  private CompletableFuture<Void> dispatch(Exchange exchange, Route route, String method) {
    switch (route.endpoint()) {
      case OBJECT:
        return method.equals("PUT")
            ? objects.put(exchange, route.key())
            : objects.get(exchange, route.key());
      case FENCE:
        return objects.fence(exchange, route.key());
      case STATS:
        exchange.json(200, counters.snapshot());
        return CompletableFuture.completedFuture(null);
      case HEALTH:
        return workers
            .submit(exchange::connectionOpen, store::isHealthy)
            .thenAccept(
                healthy ->
                    exchange.json(
                        healthy ? 200 : 503,
                        new JsonBodies.Health(healthy ? "ok" : "unavailable")));
      default:
        throw new IllegalStateException("unrouted endpoint " + route.endpoint());
    }
  }
}
