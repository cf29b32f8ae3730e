package io.fencedlock.bench;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where and how a run was made, for results.json and the report. */
record RunInfo(
    String startedAt,
    String mode,
    int reps,
    String window,
    int cpus,
    String os,
    String java,
    String redis,
    String latencyToxic) {

  static RunInfo of(boolean quick, BenchPlan plan, String redisVersion, String latencyToxic) {
    return new RunInfo(
        Instant.now().toString(),
        quick ? "quick" : "full",
        plan.reps(),
        "warm-up "
            + plan.later().warmup().toMillis()
            + " ms (first run "
            + plan.first().warmup().toMillis()
            + " ms), measure "
            + plan.later().measure().toMillis()
            + " ms (scenarios 1, 1-many, 1-idle and 4: the systems in turns of "
            + UncontendedScenario.TURN.toMillis()
            + " ms)",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
        redisVersion,
        latencyToxic);
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("startedAt", startedAt);
    map.put("mode", mode);
    map.put("repetitions", reps);
    map.put("window", window);
    map.put("cpus", cpus);
    map.put("os", os);
    map.put("java", java);
    map.put("jvmArgs", ManagementFactory.getRuntimeMXBean().getInputArguments());
    map.put("redis", redis);
    map.put("scenario4Links", latencyToxic);
    map.put(
        "clientCost",
        "per operation, sampled around each turn (scenarios 1, 1-many, 1-idle, 4) or the measuring"
            + " window (2, 3), when one system alone works: process CPU time (getProcessCpuTime, in"
            + " 10 ms ticks on Linux) minus the in-process fault proxy's threads, and the sum of"
            + " getThreadAllocatedBytes over the JVM's threads; the Redis servers are separate"
            + " processes and not counted");
    return map;
  }
}
