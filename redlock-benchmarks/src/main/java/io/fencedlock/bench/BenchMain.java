package io.fencedlock.bench;

import io.fencedlock.testkit.RedisNodes;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code ./fencedlock bench}: every system, every scenario, one run, on 5 local Redis nodes; or,
 * with {@code --soak MINUTES}, the soak alone; or, with {@code --storage}, the storage service's
 * HTTP front ends alone ({@link StorageBench}). Exit code 0 when the run completed (missed targets
 * are results, not failures) and for {@code --help}, 2 on a bad command line.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    // Before any logger exists: Redisson and Lettuce are chatty at INFO.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    // The benchmark's nodes run without persistence on purpose (fsync would measure the disk);
    // redlock-core's start-up warning about that would only clutter the progress lines.
    System.setProperty("org.slf4j.simpleLogger.log.io.fencedlock.redlock.DefaultRedlock", "error");
    BenchOptions options;
    try {
      options = BenchOptions.parse(Arrays.asList(args), defaultOut());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(BenchOptions.USAGE);
      return;
    }
    if (options.storage()) {
      StorageBench.run(
          options.quick() ? BenchPlan.quick() : BenchPlan.full(), options.out(), System.err);
    } else if (options.soakMinutes().isPresent()) {
      Soak.run(options.soakMinutes().getAsInt(), options.out(), System.err);
    } else {
      run(
          options.quick() ? BenchPlan.quick() : BenchPlan.full(),
          options.quick(),
          Provenance.line(Arrays.asList(args), classes().orElse(Path.of("."))),
          options.out(),
          System.err);
    }
  }

  /**
   * Runs all scenarios and writes the results, results.md starting with {@code provenance}; returns
   * the directory written.
   */
  static Path run(
      BenchPlan plan, boolean quick, String provenance, Path dir, PrintStream progressOut) {
    try (RedisNodes redis = RedisNodes.start(5)) {
      BenchSuite suite = new BenchSuite(plan, progressOut, ServerCpu.of(redis));
      RunInfo info = RunInfo.of(quick, plan, redisVersion(redis), BenchSuite.LINKS);
      BenchSuite.Outcome outcome = suite.run(redis.uris());
      List<Target> targets = new ArrayList<>(outcome.targets());
      targets.addAll(SoakTargets.read(dir.resolve("soak.json"))); // from an earlier --soak, if any
      ResultsJson.write(dir.resolve("results.json"), info, outcome.scenarios(), targets);
      ReportHtml.write(dir, info, outcome.scenarios(), targets);
      String tables = Tables.markdown(outcome.scenarios(), targets);
      Files.writeString(dir.resolve("results.md"), provenance + tables);
      System.out.println(tables);
      System.out.println(
          "wrote " + dir.resolve("results.json") + " and " + dir.resolve("report.html"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("could not write results into " + dir, e);
    }
    return dir;
  }

  private static String redisVersion(RedisNodes redis) {
    Object info = redis.node(0).command("INFO", "server");
    return String.valueOf(info)
        .lines()
        .filter(l -> l.startsWith("redis_version:"))
        .map(l -> l.substring("redis_version:".length()).trim())
        .findFirst()
        .orElse("unknown");
  }

  /** redlock-benchmarks/target/bench, found from where this class was loaded. */
  private static Path defaultOut() {
    return classes()
        .map(Path::getParent)
        .map(target -> target.resolve("bench"))
        .orElse(Path.of("target", "bench"));
  }

  /** redlock-benchmarks/target/classes, if this class was loaded from that directory. */
  private static Optional<Path> classes() {
    try {
      Path classes =
          Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return Files.isDirectory(classes) && classes.getParent() != null
          ? Optional.of(classes)
          : Optional.empty();
    } catch (URISyntaxException | SecurityException e) {
      // Loaded from somewhere without a file path (unusual): fall back to the working directory.
      return Optional.empty();
    }
  }
}
