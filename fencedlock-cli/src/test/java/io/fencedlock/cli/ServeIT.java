package io.fencedlock.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.cli.exec.ExecMain;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} as a real process: its banner, a PUT/GET over HTTP, and a clean SIGTERM. */
final class ServeIT {
  private static final Pattern SERVICE_LINE =
      Pattern.compile("^storage service: (http://127\\.0\\.0\\.1:\\d+)$");
  private static final Pattern NODES_LINE = Pattern.compile("^redis nodes:\\s+(.+)$");
  private static final int SIGTERM_EXIT = 128 + 15;

  @TempDir Path dir;

  @Test
  void serve_putGetThenSigterm_stopsServiceAndEveryRedisNode() {
    try (ChildProcess serve =
        ChildProcess.start(dir, dir, ChildProcess.java(ServeMain.class, "--port", "0"))) {
      URI url = URI.create(serve.awaitLine(SERVICE_LINE, Timing.PROCESS).group(1));
      List<Integer> ports = new ArrayList<>(nodePorts(serve));
      ports.add(url.getPort());
      List<ProcessHandle> redis = serve.descendants("redis-server");
      assertThat(redis).hasSize(DemoEnvironment.NODES);
      // The curl examples follow the address lines; read stdout once they are all out (CI once
      // read it between the two).
      serve.awaitLine(Pattern.compile(".*409.*"), Timing.PROCESS);
      assertThat(serve.stdout())
          .contains("curl -i -X PUT " + url + "/objects/greeting -H 'Fencing-Token: 2'", "409");

      FencedStorageClient client = FencedStorageClient.create(url);
      assertThat(client.put("greeting", "hello".getBytes(UTF_8), 2, "client-2"))
          .isEqualTo(new WriteResult.Accepted(2));
      assertThat(client.put("greeting", "late".getBytes(UTF_8), 1, "client-1"))
          .isEqualTo(new WriteResult.Rejected(2, WriteResult.Reason.STALE));
      assertThat(client.get("greeting")).map(StoredObject::valueAsUtf8).contains("hello");

      assertThat(serve.terminate(Timing.PROCESS)).isEqualTo(SIGTERM_EXIT);
      assertThat(serve.stdout()).endsWith("stopped\n");
      await("redis-server processes gone")
          .atMost(Timing.AWAIT)
          .pollInterval(50, TimeUnit.MILLISECONDS)
          .until(() -> redis.stream().noneMatch(ProcessHandle::isAlive));
      await("ports closed")
          .atMost(Timing.AWAIT)
          .pollInterval(50, TimeUnit.MILLISECONDS)
          .until(() -> ports.stream().noneMatch(ServeIT::accepts));
    }
  }

  @Test
  void serve_badPort_exitsTwoWithUsage() {
    try (ChildProcess serve =
        ChildProcess.start(dir, dir, ChildProcess.java(ServeMain.class, "--port", "http"))) {
      assertThat(serve.awaitExit(Timing.PROCESS)).isEqualTo(2);
      assertThat(serve.stderr()).contains("--port must be 0-65535", "usage: ./fencedlock serve");
      assertThat(serve.descendants("redis-server")).isEmpty();
    }
  }

  @Test
  void serve_help_printsUsageAndExitsZero() {
    try (ChildProcess serve =
        ChildProcess.start(dir, dir, ChildProcess.java(ServeMain.class, "--help"))) {
      assertThat(serve.awaitExit(Timing.PROCESS)).isZero();
      assertThat(serve.stdout()).startsWith("usage: ./fencedlock serve").contains("--port N");
    }
  }

  @Test
  void serve_printedNodes_areWhatExecNodesTakes() {
    try (ChildProcess serve =
        ChildProcess.start(dir, dir, ChildProcess.java(ServeMain.class, "--port", "0"))) {
      String nodes = serve.awaitLine(NODES_LINE, Timing.PROCESS).group(1);
      try (ChildProcess exec =
          ChildProcess.start(
              dir,
              dir,
              ChildProcess.java(
                  ExecMain.class, "--nodes", nodes, "--wait", "5s", "serve-it", "--", "true"))) {
        assertThat(exec.awaitExit(Timing.PROCESS)).as(exec.output()).isZero();
      }
    }
  }

  private static List<Integer> nodePorts(ChildProcess serve) {
    String uris = serve.awaitLine(NODES_LINE, Timing.AWAIT).group(1);
    return Arrays.stream(uris.split(",")).map(URI::create).map(URI::getPort).toList();
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      // Refused (or timed out): nothing listens on the port any more.
      return false;
    }
  }
}
