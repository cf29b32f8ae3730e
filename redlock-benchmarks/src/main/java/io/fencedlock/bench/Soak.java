package io.fencedlock.bench;

import com.google.gson.GsonBuilder;
import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code ./fencedlock bench --soak MINUTES}: one fenced Redlock under a steady mixed load (4
 * clients each on 1,000 resources of its own, with an extend per lease; 4 clients contending for
 * one resource, waiting at most 2 s) while heap-after-GC and thread count are sampled every 20th of
 * the run. Writes soak.json with the samples and the soak targets.
 */
final class Soak {
  private static final int SAMPLES = 20;
  private static final int RESOURCES = 1_000;
  private static final Duration CONTENDED_WAIT = Duration.ofSeconds(2);

  private Soak() {}

  static void run(int minutes, Path dir, PrintStream progress) {
    long sampleEveryNanos = Duration.ofMinutes(minutes).toNanos() / SAMPLES;
    LongAdder ops = new LongAdder();
    LongAdder errors = new LongAdder();
    List<SoakSample> samples = new ArrayList<>();
    long start = System.nanoTime();
    try (RedisNodes redis = RedisNodes.start(5);
        Redlock redlock = Redlock.create(RedlockConfig.builder().nodes(redis.uris()).build())) {
      Workers workers = Workers.start("soak", 8, client -> step(redlock, client, ops, errors));
      for (int i = 1; i <= SAMPLES; i++) {
        Workers.pause(Duration.ofNanos(start + i * sampleEveryNanos - System.nanoTime()));
        SoakSample sample = sample((System.nanoTime() - start) / 60e9, ops.sum(), errors.sum());
        samples.add(sample);
        progress.printf(
            Locale.ROOT,
            "[soak %2d/%d] minute %.1f  heap after GC %.1f MB  direct %.2f MB  threads %d  leases"
                + " %d  errors %d%n",
            i,
            SAMPLES,
            sample.minute(),
            sample.heapUsedMb(),
            sample.directUsedMb(),
            sample.threads(),
            sample.operations(),
            sample.errors());
      }
      workers.stopAndJoin();
    }
    List<Target> targets = SoakVerdict.targets(samples, minutes);
    write(dir.resolve("soak.json"), minutes, samples, targets);
    targets.forEach(
        t ->
            progress.printf(
                Locale.ROOT,
                "%s = %.2f (limit %s %.2f): %s%n",
                t.name(),
                t.value(),
                t.atMost() ? "<=" : ">=",
                t.limit(),
                t.met() ? "met" : "MISSED"));
  }

  private static void step(Redlock redlock, int client, LongAdder ops, LongAdder errors) {
    boolean contended = client % 2 == 1;
    // Each uncontended client rotates through resources of its own, so it never meets another.
    String resource =
        contended
            ? "soak:contended"
            : "soak:" + client + ":" + ThreadLocalRandom.current().nextInt(RESOURCES);
    try (Lease lease =
        redlock.acquire(
            resource, BenchTiming.LEASE_TTL, contended ? CONTENDED_WAIT : Duration.ZERO)) {
      if (!contended) {
        lease.extend(BenchTiming.LEASE_TTL);
      }
      ops.increment();
    } catch (LockAcquisitionException e) {
      errors.increment(); // a contended wait that ran out; counted in soak.json
    }
  }

  private static SoakSample sample(double minute, long ops, long errors) {
    System.gc(); // explicit: heap-after-GC is the figure that must stay flat
    double heapMb =
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    return new SoakSample(
        minute,
        heapMb,
        directMemoryMb(),
        ManagementFactory.getThreadMXBean().getThreadCount(),
        ops,
        errors);
  }

  /** Direct buffer memory in use, in MB (0 if the JVM reports no such pool). */
  static double directMemoryMb() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .mapToLong(BufferPoolMXBean::getMemoryUsed)
            .sum()
        / (1024.0 * 1024.0);
  }

  private static void write(
      Path file, int minutes, List<SoakSample> samples, List<Target> targets) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("minutes", minutes);
    root.put(
        "workload",
        "1 fenced Redlock, 5 nodes; 4 clients each on "
            + RESOURCES
            + " random resources of its own with one extend per lease, 4 clients contending for one"
            + " resource (max wait 2 s; errors = waits that ran out)");
    root.put("samples", samples);
    root.put("targets", targets);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, new GsonBuilder().setPrettyPrinting().create().toJson(root));
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }
}
