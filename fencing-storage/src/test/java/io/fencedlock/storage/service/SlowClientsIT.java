package io.fencedlock.storage.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.storage.service.StalledConnections.Kind;
import io.fencedlock.storage.service.StalledConnections.Stalled;
import io.fencedlock.testkit.support.Timing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow and stalled clients cannot starve the service: while 1,000 connections stall (in the middle
 * of a head, in the middle of a body, idle between keep-alive requests), normal clients still write
 * and the health check still answers; then the server's own timeouts close every stalled
 * connection. Clients that trickle a byte now and then, which no idle timeout cuts off, are cut off
 * by the head and body deadlines. Outcomes are asserted, not durations. SQLite only: the database
 * plays no part in how the HTTP layer treats slow clients.
 */
final class SlowClientsIT {
  private static final int STALLED = 1_000;
  private static final int WRITERS = 4;
  private static final int WRITES_PER_WRITER = 25;
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  /** Long enough to stay open while normal clients work; the checks below prove they did. */
  private static final Duration STALL_TIMEOUTS = Timing.scaled(Duration.ofSeconds(5));

  @TempDir Path dir;
  private StorageService service;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void thousandStalledConnections_normalWritesAndHealthSucceedThenStalledOnesClosed()
      throws Exception {
    assertEnoughFileDescriptors();
    start(STALL_TIMEOUTS, STALL_TIMEOUTS, STALL_TIMEOUTS);
    try (StalledConnections stalled = new StalledConnections(service.url())) {
      Kind[] kinds = Kind.values();
      for (int i = 0; i < STALLED; i++) {
        stalled.open(kinds[i % kinds.length]);
      }

      writeAndCheckHealthMeanwhile();

      assertThat(stalled.all())
          .as("stalled connections still held while the normal clients worked")
          .allMatch(s -> uncheckedStillOpen(s.socket()));
      Map<Kind, Integer> closed = new EnumMap<>(Kind.class);
      for (Stalled s : stalled.all()) {
        String answer = StalledConnections.readUntilClosed(s.socket(), Timing.AWAIT);
        if (!answer.isEmpty()) {
          // Closed with an answer: only a body cut off by its deadline gets one.
          assertThat(s.kind()).isEqualTo(Kind.PARTIAL_BODY);
          assertThat(answer).startsWith("HTTP/1.1 408 ");
        }
        closed.merge(s.kind(), 1, Integer::sum);
      }
      assertThat(closed.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(STALLED);
    }
    assertThat(FencedStorageClient.create(service.url()).isHealthy()).isTrue();
  }

  @Test
  void headTrickledNeverIdle_closedByHeadDeadline() throws Exception {
    start(Timing.scaled(Duration.ofSeconds(1)), Timing.WORKLOAD, Timing.WORKLOAD);
    String head =
        "PUT /objects/trickle HTTP/1.1\r\nHost: x\r\nLock-Owner: "
            + OWNER
            + "\r\n"
            + "X-Padding: "
            + "p".repeat(4000)
            + "\r\n";

    try (Socket socket = new Socket(service.url().getHost(), service.url().getPort())) {
      trickleUntilClosed(socket, head.getBytes(StandardCharsets.US_ASCII));
    }

    assertThat(timeouts("head")).isEqualTo(1);
    assertThat(FencedStorageClient.create(service.url()).isHealthy()).isTrue();
  }

  /**
   * Blank lines before a request line are allowed padding: Jetty's parser stays at the start of a
   * message while it skips them (refusing them only past the 8 KiB head limit), so the head
   * deadline must count them as a head that has begun, or a client sending CR/LF every few seconds
   * holds its connection for days.
   */
  @Test
  void paddingBeforeHeadTrickledNeverIdle_closedByHeadDeadline() throws Exception {
    start(Timing.scaled(Duration.ofSeconds(1)), Timing.WORKLOAD, Timing.WORKLOAD);

    try (Socket socket = new Socket(service.url().getHost(), service.url().getPort())) {
      trickleUntilClosed(socket, "\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    assertThat(timeouts("head")).isEqualTo(1);
    assertThat(FencedStorageClient.create(service.url()).isHealthy()).isTrue();
  }

  @Test
  void paddingAfterKeepAliveRequestTrickledNeverIdle_closedByHeadDeadline() throws Exception {
    start(Timing.scaled(Duration.ofSeconds(1)), Timing.WORKLOAD, Timing.WORKLOAD);

    try (Socket socket = new Socket(service.url().getHost(), service.url().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = trickleUntilClosed(socket, "\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(answer).startsWith("HTTP/1.1 200 ");
    }

    assertThat(timeouts("head")).isEqualTo(1);
  }

  /** A keep-alive connection that sends nothing is the idle timeout's, not the head deadline's. */
  @Test
  void keepAliveSilentLongerThanHeadDeadline_staysOpenForNextRequest() throws Exception {
    Duration head = Timing.scaled(Duration.ofMillis(300));
    start(head, Timing.WORKLOAD, Timing.WORKLOAD);
    byte[] health = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    try (Socket socket = new Socket(service.url().getHost(), service.url().getPort())) {
      socket.setSoTimeout((int) Timing.AWAIT.toMillis());
      socket.getOutputStream().write(health);
      StalledConnections.readOneResponse(socket.getInputStream());
      Thread.sleep(head.multipliedBy(4).toMillis()); // several sweeps past the head deadline
      socket.getOutputStream().write(health);
      StalledConnections.readOneResponse(socket.getInputStream());
    }

    assertThat(meters.find(ServiceMetrics.TIMEOUTS).counters()).isEmpty();
  }

  @Test
  void bodyTrickledNeverIdle_408AndClosedByBodyDeadlineAndNothingWritten() throws Exception {
    start(Timing.WORKLOAD, Timing.scaled(Duration.ofSeconds(1)), Timing.WORKLOAD);
    String head =
        "PUT /objects/trickle HTTP/1.1\r\nHost: x\r\nFencing-Token: 1\r\n"
            + "Lock-Owner: "
            + OWNER
            + "\r\nContent-Length: 4000\r\n\r\n";

    try (Socket socket = new Socket(service.url().getHost(), service.url().getPort())) {
      socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      String answer =
          trickleUntilClosed(socket, "b".repeat(4000).getBytes(StandardCharsets.US_ASCII));
      assertThat(answer).startsWith("HTTP/1.1 408 ").contains("\"error\"");
    }

    assertThat(timeouts("body")).isEqualTo(1);
    assertThat(FencedStorageClient.create(service.url()).get("trickle")).isEmpty();
  }

  /**
   * Sends {@code bytes} one every 20 ms, far more often than the idle timeout, until the server
   * closes the connection; returns what the server sent.
   */
  private static String trickleUntilClosed(Socket socket, byte[] bytes) throws Exception {
    OutputStream out = socket.getOutputStream();
    ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
    try {
      int[] next = {0};
      trickler.scheduleAtFixedRate(
          () -> {
            try {
              out.write(bytes[next[0]++ % bytes.length]);
              out.flush();
            } catch (IOException closed) {
              throw new IllegalStateException("closed by the server", closed); // ends the schedule
            }
          },
          0,
          Timing.POLL.toMillis(),
          TimeUnit.MILLISECONDS);
      return StalledConnections.readUntilClosed(socket, Timing.AWAIT);
    } finally {
      trickler.shutdownNow();
    }
  }

  private void writeAndCheckHealthMeanwhile() throws Exception {
    FencedStorageClient client =
        new FencedStorageClient(
            service.url(), FencedStorageClient.DEFAULT_CONNECT_TIMEOUT, Timing.AWAIT);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<Void>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String key = "normal-" + w;
        writers.add(
            pool.submit(
                () -> {
                  for (int token = 1; token <= WRITES_PER_WRITER; token++) {
                    assertThat(client.put(key, ("v" + token).getBytes(UTF_8), token, OWNER))
                        .isEqualTo(new WriteResult.Accepted(token));
                    assertThat(client.isHealthy()).as("health while stalled").isTrue();
                  }
                  return null;
                }));
      }
      for (Future<Void> writer : writers) {
        writer.get(Timing.WORKLOAD.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void start(Duration head, Duration body, Duration idle) {
    service =
        StorageService.start(
            StorageConfig.builder()
                .jdbcUrl("jdbc:sqlite:" + dir.resolve("slow.db"))
                .headerTimeout(head)
                .bodyTimeout(body)
                .idleTimeout(idle)
                .meterRegistry(meters)
                .build());
  }

  private double timeouts(String phase) {
    return meters.get(ServiceMetrics.TIMEOUTS).tag("phase", phase).counter().count();
  }

  private static boolean uncheckedStillOpen(Socket socket) {
    try {
      return StalledConnections.stillOpen(socket);
    } catch (IOException e) {
      return false;
    }
  }

  /** Both ends of every stalled connection live in this JVM: two descriptors each, plus slack. */
  private static void assertEnoughFileDescriptors() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
      assertThat(os.getMaxFileDescriptorCount())
          .as("open-file limit of the test JVM (ulimit -n); this test needs %d", 2 * STALLED + 500)
          .isGreaterThanOrEqualTo(2L * STALLED + 500);
    }
  }
}
