package io.fencedlock.testkit.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Requests over a real socket to the JDK's HTTP server, with each way of framing a response. */
final class RawHttpIT {
  private static HttpServer server;
  private static RawHttp http;

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/fixed",
        exchange -> respond(exchange, 200, "fixed " + exchange.getRequestMethod(), false));
    server.createContext("/chunked", exchange -> respond(exchange, 200, "chunked body", true));
    server.createContext(
        "/empty",
        exchange -> {
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.createContext(
        "/echo",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          respond(
              exchange,
              201,
              exchange.getRequestMethod()
                  + " "
                  + new String(body, StandardCharsets.UTF_8)
                  + " "
                  + exchange.getRequestHeaders().getFirst("Content-Type"),
              false);
        });
    server.start();
    http = new RawHttp("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @Test
  void get_contentLength_readsBodyAndHeaders() {
    RawHttp.Response response = http.get("/fixed");

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.bodyText()).isEqualTo("fixed GET");
    assertThat(response.header("Content-Length")).contains("9");
  }

  @Test
  void get_chunkedResponse_isDechunked() {
    assertThat(http.get("/chunked").bodyText()).isEqualTo("chunked body");
  }

  @Test
  void delete_noContent_hasEmptyBody() {
    RawHttp.Response response = http.delete("/empty");

    assertThat(response.status()).isEqualTo(204);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void postAndPatch_jsonBody_areSentWithLengthAndType() {
    assertThat(http.post("/echo", "{\"a\":1}").bodyText())
        .isEqualTo("POST {\"a\":1} application/json");
    assertThat(http.patch("/echo", "{}").bodyText()).isEqualTo("PATCH {} application/json");
  }

  @Test
  void sendWithBody_chunkedFraming_arrivesWhole() {
    byte[] framed = RawHttp.chunked("abc".getBytes(StandardCharsets.UTF_8));

    RawHttp.Response response =
        http.send("PUT", "/echo", new String[] {"Transfer-Encoding: chunked"}, framed);

    assertThat(response.status()).isEqualTo(201);
    assertThat(response.bodyText()).startsWith("PUT abc");
  }

  @Test
  void sendVerbatim_requestAsGiven_readsTheResponse() {
    RawHttp.Response response =
        http.sendVerbatim(
            "GET /fixed HTTP/1.1\r\nHost: " + http.hostHeader() + "\r\nConnection: close\r\n\r\n");

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.bodyText()).isEqualTo("fixed GET");
  }

  private static void respond(HttpExchange exchange, int status, String text, boolean chunked)
      throws IOException {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, chunked ? 0 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
