package io.fencedlock.bench;

import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes results.json: run info, per scenario and system the median figures (latencies in
 * microseconds), the per-repetition figures and the ratios, and the {@code targets} array.
 */
final class ResultsJson {
  private ResultsJson() {}

  static void write(Path file, RunInfo info, Map<String, ScenarioResult> scenarios, List<Target> targets) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("run", info.toMap());
    ScenarioResult s1 = scenarios.get("1");
    root.put("roundTripMicros", s1 == null ? null : nanToNull(Targets.roundTripMicros(s1)));
    List<Object> list = new ArrayList<>();
    scenarios.values().forEach(s -> list.add(scenario(s)));
    root.put("scenarios", list);
    List<Object> targetList = new ArrayList<>();
    for (Target t : targets) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", t.name());
      entry.put("value", nanToNull(round(t.value())));
      entry.put("limit", t.limit());
      entry.put("comparison", t.atMost() ? "<=" : ">=");
      entry.put("met", t.met());
      targetList.add(entry);
    }
    root.put("targets", targetList);
    List<Object> referenceList = new ArrayList<>();
    Targets.references(scenarios).forEach((name, value) -> {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", name);
      entry.put("value", nanToNull(round(value)));
      entry.put("meaning", "bounds the Redisson RedLock targets of the same scenario: no quorum client beats floor-N beyond noise");
      referenceList.add(entry);
    });
    root.put("references", referenceList);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root));
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }

  private static Map<String, Object> scenario(ScenarioResult s) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("id", s.id());
    map.put("title", s.title());
    List<Object> systems = new ArrayList<>();
    for (SystemResult r : s.systems()) {
      Map<String, Object> sys = new LinkedHashMap<>();
      sys.put("name", r.system());
      sys.put("median", r.median());
      sys.put("p50OverFloorN", nanToNull(round(s.p50Ratio(r.system(), Systems.FLOOR_N).orElse(Double.NaN))));
      sys.put("opsOverFloorN", nanToNull(round(s.opsRatio(r.system(), Systems.FLOOR_N).orElse(Double.NaN))));
      sys.put("p50OverRedissonRedLock",
          nanToNull(round(s.p50Ratio(r.system(), Systems.REDISSON_REDLOCK).orElse(Double.NaN))));
      sys.put("opsOverRedissonRedLock",
          nanToNull(round(s.opsRatio(r.system(), Systems.REDISSON_REDLOCK).orElse(Double.NaN))));
      sys.put("repetitions", r.reps());
      sys.put("errorSamples", r.errorSamples());
      systems.add(sys);
    }
    map.put("systems", systems);
    return map;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static Double nanToNull(double v) {
    return Double.isNaN(v) ? null : v;
  }
}
