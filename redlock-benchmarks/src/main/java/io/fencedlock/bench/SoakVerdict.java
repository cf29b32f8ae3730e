package io.fencedlock.bench;

import java.util.List;

/**
 * Decides whether heap-after-GC and thread count stayed flat over a soak. The first sample is the
 * warm-up (classes, pools and JIT settle) and is left out. Heap: the mean of the last third of
 * samples may exceed the mean of the first third by at most 10 % or 4 MB, whichever is larger; more
 * than that over ten minutes is a leak. Threads: at most 2 more or fewer than at the start (Lettuce
 * and the JDK start a few helper threads lazily).
 */
final class SoakVerdict {
  static final double HEAP_SLACK_MB = 4;
  static final double HEAP_SLACK_FRACTION = 0.10;
  static final int THREAD_SLACK = 2;

  private SoakVerdict() {}

  static List<Target> targets(List<SoakSample> samples, double minutes) {
    List<SoakSample> settled = samples.size() > 1 ? samples.subList(1, samples.size()) : samples;
    int third = Math.max(1, settled.size() / 3);
    double early = mean(settled.subList(0, third));
    double late = mean(settled.subList(settled.size() - third, settled.size()));
    int firstThreads = settled.get(0).threads();
    int drift =
        settled.stream().mapToInt(s -> Math.abs(s.threads() - firstThreads)).max().orElse(0);
    return List.of(
        Target.atLeast("soak.minutes", minutes, 10),
        Target.atMost(
            "soak.heap_growth_mb",
            late - early,
            Math.max(HEAP_SLACK_MB, early * HEAP_SLACK_FRACTION)),
        Target.atMost("soak.thread_count_drift", drift, THREAD_SLACK));
  }

  private static double mean(List<SoakSample> samples) {
    return samples.stream().mapToDouble(SoakSample::heapUsedMb).average().orElse(Double.NaN);
  }
}
