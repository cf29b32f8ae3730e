package io.fencedlock.storage.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.store.StoreException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single {@link HttpHandler}: resolves the route, checks the method, dispatches, and maps
 * failures to statuses — {@link HttpProblem} to its 4xx, {@link StoreException} to 503, anything
 * else (a bug) to 500. Answers 503 once the service is draining. Always closes the exchange.
 * Thread-safe.
 */
final class Router implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(Router.class);

  private final ObjectEndpoints objects;
  private final FencedStore store;
  private final WriteCounters counters;
  private final InFlightRequests inFlight;

  Router(FencedStore store, WriteCounters counters, InFlightRequests inFlight) {
    this.objects = new ObjectEndpoints(store, counters);
    this.store = store;
    this.counters = counters;
    this.inFlight = inFlight;
  }

  @Override
  public void handle(HttpExchange exchange) {
    if (!inFlight.tryEnter()) {
      exchange.getResponseHeaders().set("Connection", "close");
      fail(exchange, 503, "shutting down", null);
      exchange.close();
      return;
    }
    try {
      dispatch(exchange);
    } catch (HttpProblem problem) {
      problem.allow().ifPresent(allow -> exchange.getResponseHeaders().set("Allow", allow));
      fail(exchange, problem.status(), problem.getMessage(), null);
    } catch (StoreException e) {
      fail(exchange, 503, "storage unavailable: " + e.getMessage(), e);
    } catch (IOException e) {
      // The client went away or the connection broke; there is no one left to answer.
      log.debug("connection failed during {} {}", exchange.getRequestMethod(), path(exchange), e);
    } catch (RuntimeException e) {
      fail(exchange, 500, "internal error", e);
    } finally {
      exchange.close();
      inFlight.exit();
    }
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    Route route =
        Route.parse(path(exchange)).orElseThrow(() -> HttpProblem.notFound("no such endpoint"));
    String method = exchange.getRequestMethod();
    if (!route.endpoint().allows(method)) {
      throw HttpProblem.methodNotAllowed(method, route.endpoint().allowHeader());
    }
    switch (route.endpoint()) {
      case OBJECT:
        if (method.equals("PUT")) {
          objects.put(exchange, route.key());
        } else {
          objects.get(exchange, route.key());
        }
        break;
      case FENCE:
        objects.fence(exchange, route.key());
        break;
      case STATS:
        HttpResponses.json(exchange, 200, counters.snapshot());
        break;
      case HEALTH:
        boolean healthy = store.isHealthy();
        HttpResponses.json(
            exchange, healthy ? 200 : 503, new JsonBodies.Health(healthy ? "ok" : "unavailable"));
        break;
    }
  }

  private static void fail(HttpExchange exchange, int status, String message, Exception cause) {
    if (cause != null) {
      log.warn("{} {} -> {}", exchange.getRequestMethod(), path(exchange), status, cause);
    }
    if (exchange.getResponseCode() != -1) {
      // Headers are already out; the only signal left is closing the connection.
      return;
    }
    try {
      HttpResponses.json(exchange, status, new JsonBodies.Error(message));
    } catch (IOException e) {
      // The client went away while we were reporting an error to it.
      log.debug("could not send the {} response", status, e);
    }
  }

  private static String path(HttpExchange exchange) {
    return exchange.getRequestURI().getRawPath();
  }
}
