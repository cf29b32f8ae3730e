package io.fencedlock.faultproxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes requests to {@link ApiHandlers} and writes responses. The Content-Type of requests is not
 * checked (toxiproxy-java labels JSON as form data), and a body without Content-Length is read as
 * empty (its {@code POST /reset}).
 *
 * <p>Thread-safe: stateless; called concurrently from the HTTP server's threads.
 */
final class ApiRoutes implements HttpHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiRoutes.class);
  private static final Set<String> UPDATE_METHODS = Set.of("POST", "PATCH");

  private final ApiHandlers handlers;

  ApiRoutes(ApiHandlers handlers) {
    this.handlers = handlers;
  }

  @Override
  public void handle(HttpExchange exchange) {
    try (exchange) {
      ApiResponse response = respond(exchange);
      send(exchange, response);
    } catch (IOException e) {
      // The client went away mid-exchange; there is nobody left to answer.
      log.debug("API exchange failed", e);
    }
  }

  private ApiResponse respond(HttpExchange exchange) throws IOException {
    try {
      String userAgent = exchange.getRequestHeaders().getFirst("User-Agent");
      if (userAgent != null && userAgent.startsWith("Mozilla/")) {
        throw ApiException.of(403, "User agent not allowed"); // as Toxiproxy: no CSRF from browsers
      }
      String body = readBody(exchange.getRequestBody());
      List<String> path = segments(exchange.getRequestURI().getPath());
      return route(exchange.getRequestMethod(), path, body);
    } catch (ApiException e) {
      return ApiResponse.error(e);
    } catch (RuntimeException e) {
      log.warn(
          "API request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      return ApiResponse.error(ApiException.internal(String.valueOf(e.getMessage())));
    }
  }

  private ApiResponse route(String method, List<String> path, String body) {
    return switch (path.size()) {
      case 1 -> routeRoot(method, path.get(0), body);
      case 2 -> routeProxy(method, path, body);
      case 3 -> routeToxics(method, path, body);
      case 4 -> routeToxic(method, path, body);
      default -> throw notFound();
    };
  }

  private ApiResponse routeRoot(String method, String resource, String body) {
    return switch (resource) {
      case "proxies" ->
          switch (method) {
            case "GET" -> handlers.listProxies();
            case "POST" -> handlers.createProxy(body);
            default -> throw methodNotAllowed();
          };
      case "reset" -> only("POST", method, handlers::reset);
      case "populate" -> only("POST", method, () -> handlers.populate(body));
      case "version" -> only("GET", method, handlers::version);
      default -> throw notFound();
    };
  }

  private ApiResponse routeProxy(String method, List<String> path, String body) {
    requireResource(path, "proxies", null);
    String proxy = path.get(1);
    if (UPDATE_METHODS.contains(method)) {
      return handlers.updateProxy(proxy, body);
    }
    return switch (method) {
      case "GET" -> handlers.getProxy(proxy);
      case "DELETE" -> handlers.deleteProxy(proxy);
      default -> throw methodNotAllowed();
    };
  }

  private ApiResponse routeToxics(String method, List<String> path, String body) {
    requireResource(path, "proxies", "toxics");
    String proxy = path.get(1);
    return switch (method) {
      case "GET" -> handlers.listToxics(proxy);
      case "POST" -> handlers.createToxic(proxy, body);
      default -> throw methodNotAllowed();
    };
  }

  private ApiResponse routeToxic(String method, List<String> path, String body) {
    requireResource(path, "proxies", "toxics");
    String proxy = path.get(1);
    String toxic = path.get(3);
    if (UPDATE_METHODS.contains(method)) {
      return handlers.updateToxic(proxy, toxic, body);
    }
    return switch (method) {
      case "GET" -> handlers.getToxic(proxy, toxic);
      case "DELETE" -> handlers.deleteToxic(proxy, toxic);
      default -> throw methodNotAllowed();
    };
  }

  private static ApiResponse only(String allowed, String method, Supplier<ApiResponse> handler) {
    if (!allowed.equals(method)) {
      throw methodNotAllowed();
    }
    return handler.get();
  }

  private static void requireResource(List<String> path, String first, @Nullable String third) {
    if (!path.get(0).equals(first) || (third != null && !path.get(2).equals(third))) {
      throw notFound();
    }
  }

  /** Decoded, non-empty path segments; an empty one (e.g. a trailing slash) matches no route. */
  private static List<String> segments(String path) {
    if (path == null || !path.startsWith("/") || path.length() == 1) {
      return List.of();
    }
    List<String> segments = List.of(path.substring(1).split("/", -1));
    return segments.contains("") ? List.of() : segments;
  }

  private static String readBody(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void send(HttpExchange exchange, ApiResponse response) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (response.body() == null) {
      exchange.sendResponseHeaders(response.status(), -1);
      return;
    }
    String text = JsonMapping.write(response.body()) + (response.trailingNewline() ? "\n" : "");
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(response.status(), bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static ApiException notFound() {
    return ApiException.of(404, "404 page not found");
  }

  private static ApiException methodNotAllowed() {
    return ApiException.of(405, "method not allowed");
  }
}
