package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.client.FencedStorageClient;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StorageServiceMain} as a real process: its output contract, SIGTERM and bad arguments. */
final class StorageServiceMainIT {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final int SIGTERM_EXIT = 128 + 15;

  @TempDir Path dir;

  @Test
  void start_sqlitePath_printsExactlyOneListeningLine() {
    String db = dir.resolve("nested/dir/main.db").toString();
    try (ServiceProcess service = ServiceProcess.start(dir, "--port", "0", "--db", db)) {
      assertThat(service.stdout())
          .isEqualTo("listening on http://127.0.0.1:" + service.url().getPort() + "\n");
      assertThat(FencedStorageClient.create(service.url()).isHealthy()).isTrue();
    }
  }

  @Test
  void terminate_runningService_stopsCleanlyAndKeepsData() {
    String db = dir.resolve("main.db").toString();
    try (ServiceProcess service = ServiceProcess.start(dir, "--db", db)) {
      FencedStorageClient.create(service.url()).put("k", "v".getBytes(UTF_8), 4, OWNER);

      int exit = service.terminate();

      assertThat(exit).isEqualTo(SIGTERM_EXIT);
      assertThat(service.stdout()).endsWith("stopped\n");
      assertThat(service.stderr()).doesNotContain("Exception");
    }
    try (ServiceProcess restarted = ServiceProcess.start(dir, "--db", "jdbc:sqlite:" + db)) {
      assertThat(FencedStorageClient.create(restarted.url()).get("k"))
          .contains(new StoredObject("v".getBytes(UTF_8), 4, OWNER));
    }
  }

  @Test
  void start_badPort_exitsWithUsage() {
    try (ServiceProcess service = ServiceProcess.launch(dir, "--port", "http")) {
      assertThat(service.awaitExit()).isEqualTo(2);
      assertThat(service.stderr()).contains("--port must be 0-65535").contains("usage:");
      assertThat(service.stdout()).isEmpty();
    }
  }

  @Test
  void start_unsupportedDatabase_exitsWithError() {
    try (ServiceProcess service = ServiceProcess.launch(dir, "--db", "jdbc:mysql://x/y")) {
      assertThat(service.awaitExit()).isEqualTo(1);
      assertThat(service.stderr()).contains("unsupported database URL");
    }
  }
}
