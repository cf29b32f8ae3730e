package io.fencedlock.bench;

import static io.fencedlock.bench.Systems.FENCED;
import static io.fencedlock.bench.Systems.FLOOR_N;
import static io.fencedlock.bench.Systems.REDISSON_REDLOCK;
import static io.fencedlock.bench.Systems.UNFENCED;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the targets of issue 5 against one run's medians. Every ratio compares systems of
 * the same run. A "round trip" is half of floor-N's scenario-1 p50 (floor-N does two quorum
 * steps per operation), so it is the cost of one parallel step to 5 nodes, done at the 3rd
 * reply, on this machine, in this run.
 */
final class Targets {
  /**
   * Round trips per acquire + release. Fenced takes one to acquire when the client predicts
   * its token, as on every repeat acquire of scenario 2 (each client keeps its own resource),
   * so the same as unfenced and floor-N; two on a resource's first acquire by a client.
   */
  private static final double FENCED_ROUND_TRIPS = 2;
  private static final double FLOOR_ROUND_TRIPS = 2;

  private Targets() {}

  static List<Target> check(Map<String, ScenarioResult> byId) {
    List<Target> targets = new ArrayList<>();
    ScenarioResult s1 = byId.get("1");
    ScenarioResult s2 = byId.get("2");
    ScenarioResult s3 = byId.get("3");
    ScenarioResult s4 = byId.get("4");
    if (s1 != null) {
      targets.add(Target.atMost("s1.unfenced_p50_over_floorN", value(s1.p50Ratio(UNFENCED, FLOOR_N)), 1.2));
      targets.add(Target.atMost("s1.fenced_p50_over_floorN", value(s1.p50Ratio(FENCED, FLOOR_N)), 2.0));
      targets.add(Target.atLeast("s1.redissonRedLock_p50_over_fenced", value(s1.p50Ratio(REDISSON_REDLOCK, FENCED)), 5));
      targets.add(Target.atLeast("s1.redissonRedLock_p50_over_unfenced", value(s1.p50Ratio(REDISSON_REDLOCK, UNFENCED)), 5));
    }
    if (s4 != null) {
      targets.add(Target.atLeast("s4.redissonRedLock_p50_over_fenced", value(s4.p50Ratio(REDISSON_REDLOCK, FENCED)), 3));
      targets.add(Target.atLeast("s4.redissonRedLock_p50_over_unfenced", value(s4.p50Ratio(REDISSON_REDLOCK, UNFENCED)), 3));
    }
    if (s2 != null) {
      targets.add(Target.atLeast("s2.unfenced_ops_over_floorN", value(s2.opsRatio(UNFENCED, FLOOR_N)), 0.7));
      double perRoundTrip = value(s2.opsRatio(FENCED, FLOOR_N)) * FENCED_ROUND_TRIPS / FLOOR_ROUND_TRIPS;
      targets.add(Target.atLeast("s2.fenced_ops_per_round_trip_over_floorN", perRoundTrip, 0.7));
    }
    if (s1 != null && s3 != null) {
      double roundTrip = roundTripMicros(s1);
      for (String system : List.of(FENCED, UNFENCED)) {
        double p50 = s3.median(system).map(Stats::p50).orElse(Double.NaN);
        targets.add(Target.atMost("s3." + shortName(system) + "_handoff_p50_in_round_trips", p50 / roundTrip, 3));
      }
      targets.add(Target.atMost("s3.fenced_handoff_p50_over_redissonRedLock", value(s3.p50Ratio(FENCED, REDISSON_REDLOCK)), 1.0));
    }
    return targets;
  }

  /**
   * Figures that bound a target rather than being one: Redisson RedLock's p50 over floor-N's,
   * in scenarios 1 and 4. No client that waits for a quorum of parallel replies can be faster
   * than floor-N beyond the run's noise, so no such client can beat Redisson RedLock by much more
   * than this in the same run; on loopback with five nodes on two shared cores it varies with how
   * busy the machine is.
   */
  static Map<String, Double> references(Map<String, ScenarioResult> byId) {
    Map<String, Double> references = new LinkedHashMap<>();
    for (String id : List.of("1", "4")) {
      ScenarioResult s = byId.get(id);
      if (s != null) {
        references.put("s" + id + ".redissonRedLock_p50_over_floorN", value(s.p50Ratio(REDISSON_REDLOCK, FLOOR_N)));
      }
    }
    return references;
  }

  /** Half of floor-N's scenario-1 p50, in microseconds; NaN if floor-N did not run. */
  static double roundTripMicros(ScenarioResult s1) {
    return s1.median(FLOOR_N).map(s -> s.p50() / FLOOR_ROUND_TRIPS).orElse(Double.NaN);
  }

  private static String shortName(String system) {
    return system.equals(FENCED) ? "fenced" : "unfenced";
  }

  private static double value(Optional<Double> ratio) {
    return ratio.orElse(Double.NaN);
  }
}
