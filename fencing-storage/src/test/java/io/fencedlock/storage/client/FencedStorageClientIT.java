package io.fencedlock.storage.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.service.StorageConfig;
import io.fencedlock.storage.service.StorageService;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@link FencedStorageClient} reports services that are absent, silent or misbehaving. */
final class FencedStorageClientIT {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final Duration QUICK = Duration.ofMillis(300);

  private HttpServer stub;

  @AfterEach
  void stopStub() {
    if (stub != null) {
      stub.stop(0);
    }
  }

  @Test
  void put_nothingListening_throwsClientExceptionWithoutStatus() throws IOException {
    FencedStorageClient client = FencedStorageClient.create(unusedPortUrl());

    assertThatThrownBy(() -> client.put("k", new byte[0], 1, OWNER))
        .isInstanceOfSatisfying(
            StorageClientException.class, e -> assertThat(e.statusCode()).isEqualTo(-1));
    assertThat(client.isHealthy()).isFalse();
  }

  @Test
  void get_serviceNeverAnswers_throwsTimeout() throws IOException {
    // The kernel completes the connection from the backlog; nobody ever reads or answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      URI url = URI.create("http://127.0.0.1:" + silent.getLocalPort());
      FencedStorageClient client = new FencedStorageClient(url, QUICK, QUICK);

      assertThatThrownBy(() -> client.get("k")).isInstanceOf(StorageTimeoutException.class);
    }
  }

  @Test
  void stats_unexpectedStatus_throwsWithStatus() throws IOException {
    FencedStorageClient client = stubAnswering(500, "boom");

    assertThatThrownBy(client::stats)
        .isInstanceOfSatisfying(
            StorageClientException.class, e -> assertThat(e.statusCode()).isEqualTo(500))
        .hasMessageContaining("boom");
  }

  @Test
  void put_malformedJson_throwsClientException() throws IOException {
    FencedStorageClient client = stubAnswering(200, "not json");

    assertThatThrownBy(() -> client.put("k", new byte[0], 1, OWNER))
        .isInstanceOf(StorageClientException.class)
        .hasMessageContaining("malformed");
  }

  @Test
  void fence_unknownRejectionReason_throwsClientException() throws IOException {
    FencedStorageClient client =
        stubAnswering(409, "{\"currentToken\":3,\"reason\":\"BORED\",\"error\":\"x\"}");

    assertThatThrownBy(() -> client.fence("k", 1, OWNER))
        .isInstanceOf(StorageClientException.class)
        .hasMessageContaining("BORED");
  }

  /**
   * Only the object's own 404 means "no value": a 404 for a path the service does not serve (a base
   * URL with a wrong path prefix, another server on that port) must not read as an empty object.
   */
  @Test
  void get_baseUrlWithWrongPrefix_throwsInsteadOfReportingNoValue(@TempDir Path dir) {
    try (StorageService service =
        StorageService.start(
            StorageConfig.builder().jdbcUrl("jdbc:sqlite:" + dir.resolve("c.db")).build())) {
      FencedStorageClient.create(service.url()).put("k", "v".getBytes(UTF_8), 1, OWNER);
      FencedStorageClient prefixed =
          FencedStorageClient.create(URI.create(service.url() + "/storage"));

      assertThatThrownBy(() -> prefixed.get("k"))
          .isInstanceOfSatisfying(
              StorageClientException.class, e -> assertThat(e.statusCode()).isEqualTo(404));
      assertThat(FencedStorageClient.create(service.url()).get("absent")).isEmpty();
    }
  }

  @Test
  void get_404ForAnotherKey_throwsClientException() throws IOException {
    FencedStorageClient client =
        stubAnswering(404, "{\"error\":\"no value for key\",\"key\":\"other\"}");

    assertThatThrownBy(() -> client.get("k"))
        .isInstanceOfSatisfying(
            StorageClientException.class, e -> assertThat(e.statusCode()).isEqualTo(404));
  }

  @Test
  void calls_illegalArguments_throwIllegalArgumentBeforeSending() throws IOException {
    FencedStorageClient client = FencedStorageClient.create(unusedPortUrl());

    assertThatThrownBy(() -> client.put("a b", new byte[0], 1, OWNER))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.fence("k", -1, OWNER))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.put("k", new byte[0], 1, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.get("..")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> client.put("k", new byte[StorageProtocol.MAX_VALUE_BYTES + 1], 1, OWNER))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private FencedStorageClient stubAnswering(int status, String body) throws IOException {
    stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    stub.createContext(
        "/",
        exchange -> {
          byte[] bytes = body.getBytes(UTF_8);
          exchange.sendResponseHeaders(status, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    stub.start();
    return new FencedStorageClient(
        URI.create("http://127.0.0.1:" + stub.getAddress().getPort()), QUICK, Timing.AWAIT);
  }

  private static URI unusedPortUrl() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    return URI.create("http://127.0.0.1:" + port);
  }
}
