package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.storage.client.FencedStorageClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One lock client as its own process, so that the harness can pause it (SIGSTOP), kill it (SIGKILL)
 * and skew its wall clock ({@link OffsetWallClock}) as a real process. It reads ops from standard
 * input and reports their outcomes, the targeted points it reaches and what its driver observed on
 * standard output ({@link Wire}); everything else (logs) goes to standard error. It runs one op at
 * a time, on one thread, while the main thread keeps reading (so a "go" reaches a client stopped at
 * a point), and exits when its input closes: a harness that dies takes its clients with it.
 */
public final class LockClientMain {
  private LockClientMain() {}

  public static void main(String[] args) throws IOException {
    PrintStream protocol = System.out;
    System.setOut(System.err); // nothing but protocol lines on the harness's pipe
    ClientArgs parsed = ClientArgs.parse(args);
    ClientOutput out = new ClientOutput(protocol);
    Checkpoints points = new Checkpoints(out);
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(parsed.nodes())
            .nodeTimeout(parsed.nodeTimeout())
            .maxLeaseTtl(parsed.maxLeaseTtl())
            .retryDelay(Duration.ofMillis(50))
            .retryJitter(Duration.ofMillis(50))
            .tokenPrediction(parsed.tokenPrediction())
            .build();
    DriverOptions options =
        parsed.markerCheck()
            ? DriverOptions.defaults()
            : DriverOptions.defaults().withoutMarkerCheckUnsafe();
    Environment environment = environment();
    ProbeDriver driver =
        new ProbeDriver(
            RespNodeDriver.open(config, options), points, out, environment.wallClockMillis());
    ExecutorService ops = Executors.newSingleThreadExecutor(r -> new Thread(r, "ops"));
    try (Redlock redlock = Redlock.create(config, driver, environment);
        FencedStorageClient storage =
            new FencedStorageClient(
                parsed.storage(), parsed.storageTimeout(), parsed.storageTimeout())) {
      LockSession session = new LockSession(redlock, storage, points);
      out.send(Map.of("type", "ready", "pid", ProcessHandle.current().pid()));
      serve(
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
          ops,
          session,
          points,
          out);
      ops.shutdownNow();
      session.releaseAll();
    }
    System.exit(0); // Lettuce's and the renewal's threads must not keep an orphan alive
  }

  /** The system's environment, on a skewed wall clock if the harness gave this client one. */
  private static Environment environment() {
    Environment system = Environment.system();
    String file = System.getenv(OffsetWallClock.FILE_VARIABLE);
    if (file == null || file.isBlank()) {
      return system;
    }
    return new Environment(
        system.scheduler(),
        system.random(),
        system.ids(),
        new OffsetWallClock(java.nio.file.Path.of(file)));
  }

  private static void serve(
      BufferedReader in,
      ExecutorService ops,
      LockSession session,
      Checkpoints points,
      ClientOutput out)
      throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      Map<String, Object> command = Wire.decode(line);
      switch (Wire.string(command, "cmd")) {
        case "op" -> ops.execute(() -> run(command, session, out));
        case "arm" -> points.arm(Point.fromWire(Wire.string(command, "point")));
        case "disarm" -> points.disarm();
        case "go" -> points.go();
        default -> System.err.println("unknown command: " + line);
      }
    }
  }

  private static void run(Map<String, Object> command, LockSession session, ClientOutput out) {
    long id = Wire.number(command, "id", -1);
    Completion done;
    try {
      Fn f = Fn.valueOf(Wire.string(command, "f").toUpperCase(Locale.ROOT));
      done = session.invoke(f, Wire.object(command, "value"));
    } catch (RuntimeException e) {
      done = new Completion(OpType.INFO, Map.of("error", String.valueOf(e)));
    }
    Map<String, Object> message = new HashMap<>();
    message.put("type", "done");
    message.put("id", id);
    message.put("outcome", done.type().name().toLowerCase(Locale.ROOT));
    message.put("value", done.value());
    out.send(message);
  }
}
