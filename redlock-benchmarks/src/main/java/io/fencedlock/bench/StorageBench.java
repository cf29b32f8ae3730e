package io.fencedlock.bench;

import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.storage.client.StorageClientException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * {@code ./fencedlock bench --storage}: fenced writes per second and their latency through the
 * storage service's HTTP front end, Jetty (as shipped) against the JDK {@code HttpServer} it
 * replaced, with 1, 8 and 64 writers. Each writer is one client thread putting a 100-byte value
 * under its own key with rising tokens, closed loop, through {@link FencedStorageClient}. Both
 * front ends run over SQLite on a RAM disk (/dev/shm when there is one), so that the database's
 * fsync does not hide the HTTP layer's cost. The two are measured alternately, the order rotating
 * each repetition, so ratios compare like with like within one run.
 */
final class StorageBench {
  static final List<Integer> WRITERS = List.of(1, 8, 64);
  private static final byte[] VALUE = "v".repeat(100).getBytes(StandardCharsets.UTF_8);
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  private final BenchPlan plan;
  private final PrintStream progress;

  StorageBench(BenchPlan plan, PrintStream progress) {
    this.plan = plan;
    this.progress = progress;
  }

  /**
   * Runs every writer count on both front ends; writes storage.md and storage.json into {@code
   * dir}.
   */
  static void run(BenchPlan plan, Path dir, PrintStream progress) {
    Path data = dataDirectory();
    try (StorageFrontEnd jetty = StorageFrontEnd.jetty(sqlite(data, "jetty"));
        StorageFrontEnd jdk = StorageFrontEnd.jdk(sqlite(data, "jdk"))) {
      Map<Integer, ScenarioResult> results =
          new StorageBench(plan, progress).measure(List.of(jetty, jdk));
      String table = markdown(results, data);
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("storage.md"), table);
      StorageResultsJson.write(dir.resolve("storage.json"), plan, data, results);
      System.out.println(table);
      System.out.println("wrote " + dir.resolve("storage.json"));
    } catch (IOException e) {
      throw new UncheckedIOException("could not write results into " + dir, e);
    } finally {
      deleteQuietly(data);
    }
  }

  Map<Integer, ScenarioResult> measure(List<StorageFrontEnd> frontEnds) {
    Map<Integer, ScenarioResult> results = new LinkedHashMap<>();
    for (int writers : WRITERS) {
      ScenarioResult result = new ScenarioResult(new Titled("w" + writers, writers + " writers"));
      for (int rep = 0; rep < plan.reps(); rep++) {
        for (int i = 0; i < frontEnds.size(); i++) {
          StorageFrontEnd frontEnd = frontEnds.get((i + rep) % frontEnds.size());
          progress.printf(
              Locale.ROOT,
              "storage: %2d writers  %-24s rep %d/%d%n",
              writers,
              frontEnd.name(),
              rep + 1,
              plan.reps());
          Measurement m = measure(frontEnd, writers, plan.window(rep));
          Stats stats = m.stats();
          progress.printf(
              Locale.ROOT,
              "         p50 %.1f us, p99 %.1f us, %.0f writes/s%s%n",
              stats.p50(),
              stats.p99(),
              stats.opsPerSec(),
              m.errors() > 0 ? ", " + m.errors() + " errors: " + m.firstError() : "");
          result.add(frontEnd.name(), m);
        }
      }
      results.put(writers, result);
    }
    return results;
  }

  private Measurement measure(StorageFrontEnd frontEnd, int writers, Window window) {
    FencedStorageClient client = FencedStorageClient.create(frontEnd.url());
    Recorder recorder = new Recorder(60_000_000_000L, 3);
    LongAdder errors = new LongAdder();
    AtomicReference<String> firstError = new AtomicReference<>("");
    long[] tokens = new long[writers];
    long epoch =
        System.nanoTime(); // tokens rise across repetitions: each key's writes stay accepted
    Workers workers =
        Workers.start(
            "storage-" + frontEnd.name(),
            writers,
            writer -> {
              String key = "bench-" + writers + "-" + writer;
              long token = epoch + tokens[writer]++;
              long start = System.nanoTime();
              try {
                WriteResult result = client.put(key, VALUE, token, OWNER);
                if (result.isAccepted()) {
                  recorder.recordValue(System.nanoTime() - start);
                  return;
                }
                firstError.compareAndSet("", "rejected: " + result);
              } catch (StorageClientException e) {
                firstError.compareAndSet("", String.valueOf(e.getMessage()));
              }
              errors.increment();
            });
    Workers.pause(window.warmup());
    recorder.getIntervalHistogram();
    long errorsBefore = errors.sum();
    long start = System.nanoTime();
    Workers.pause(window.measure());
    Histogram measured = recorder.getIntervalHistogram();
    long elapsed = System.nanoTime() - start;
    long errorCount = errors.sum() - errorsBefore;
    workers.stopAndJoin();
    return new Measurement(measured, elapsed, errorCount, 0, firstError.get());
  }

  static String markdown(Map<Integer, ScenarioResult> results, Path data) {
    StringBuilder out =
        new StringBuilder("### Storage service: fenced writes through each HTTP front end\n\n");
    out.append("SQLite in ")
        .append(data.getParent())
        .append(", 100-byte values, one key per writer; the JDK" + " HttpServer with TCP_NODELAY ")
        .append(System.getProperty(JdkHttpBaseline.NODELAY))
        .append(".\n\n");
    out.append(
        "| writers | front end | writes/s | p50 µs | p99 µs | writes/s ÷ JDK | p50 ÷ JDK | p99 ÷"
            + " JDK | errors |\n");
    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    results.forEach(
        (writers, result) -> {
          for (SystemResult system : result.systems()) {
            Stats m = system.median();
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %d | %s | %.0f | %.1f | %.1f | %s | %s | %s | %d |%n",
                    writers,
                    system.system(),
                    m.opsPerSec(),
                    m.p50(),
                    m.p99(),
                    ratio(result, system.system(), Stats::opsPerSec),
                    ratio(result, system.system(), Stats::p50),
                    ratio(result, system.system(), Stats::p99),
                    m.errors()));
          }
        });
    return out.toString();
  }

  private static String ratio(
      ScenarioResult result, String system, Function<Stats, Double> figure) {
    return result
        .median(system)
        .flatMap(
            a ->
                result
                    .median(StorageFrontEnd.JDK)
                    .map(
                        b ->
                            String.format(Locale.ROOT, "%.2f×", figure.apply(a) / figure.apply(b))))
        .orElse("–");
  }

  /** A scenario that only names itself: the storage bench runs its own loop. */
  record Titled(String id, String title) implements Scenario {
    @Override
    public Measurement run(LockSystem system, Window window) {
      throw new UnsupportedOperationException("the storage bench measures front ends, not locks");
    }
  }

  private static Path dataDirectory() {
    try {
      Path shm = Path.of("/dev/shm");
      return Files.isDirectory(shm) && Files.isWritable(shm)
          ? Files.createTempDirectory(shm, "fencedlock-bench-")
          : Files.createTempDirectory("fencedlock-bench-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the databases", e);
    }
  }

  private static String sqlite(Path dir, String name) {
    return "jdbc:sqlite:" + dir.resolve(name + ".db");
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary directory is harmless; say so rather than fail the run.
      System.err.println("could not delete " + dir + ": " + e);
    }
  }
}
