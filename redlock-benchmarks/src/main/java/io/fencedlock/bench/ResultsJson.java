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
import org.jspecify.annotations.Nullable;

/**
 * Writes results.json: run info, per scenario and system the median figures (latencies in
 * microseconds, the client's CPU time and allocation per operation), their spread over the
 * repetitions, the per-repetition figures and the ratios, and the {@code targets} array.
 */
final class ResultsJson {
  /** The systems every other is compared with, and how their names read in JSON keys. */
  private static final Map<String, String> BASES = orderedBases();

  private ResultsJson() {}

  static void write(
      Path file, RunInfo info, Map<String, ScenarioResult> scenarios, List<Target> targets) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("run", info.toMap());
    ScenarioResult s1 = scenarios.get("1");
    root.put("roundTripMicros", s1 == null ? null : rounded(Targets.roundTripMicros(s1)));
    root.put("roundTripSystem", Targets.ROUND_TRIP_SYSTEM);
    root.put(
        "floorNRoundTripMicros", s1 == null ? null : rounded(Targets.floorNRoundTripMicros(s1)));
    ScenarioResult s1idle = scenarios.get("1-idle");
    root.put(
        "idleSurchargeMicros",
        s1 == null || s1idle == null ? null : rounded(Targets.idleSurchargeMicros(s1, s1idle)));
    List<Object> list = new ArrayList<>();
    scenarios.values().forEach(s -> list.add(scenario(s)));
    root.put("scenarios", list);
    List<Object> targetList = new ArrayList<>();
    for (Target t : targets) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", t.name());
      entry.put("value", rounded(t.value()));
      entry.put("limit", rounded(t.limit()));
      entry.put("comparison", t.atMost() ? "<=" : ">=");
      entry.put("met", t.met());
      if (t.limitRule() != null) {
        entry.put("limitRule", t.limitRule());
      }
      if (t.repetitions() != null) {
        entry.put("repetitions", range(t.repetitions()));
      }
      Target.FloorCheck floor = t.floorOfItsKind();
      if (floor != null) {
        Map<String, Object> floorEntry = new LinkedHashMap<>();
        floorEntry.put("system", floor.system());
        floorEntry.put("value", rounded(floor.value()));
        floorEntry.put("met", floor.met());
        entry.put("floorOfItsKind", floorEntry);
      }
      targetList.add(entry);
    }
    root.put("targets", targetList);
    List<Object> referenceList = new ArrayList<>();
    for (Targets.Reference reference : Targets.references(scenarios)) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", reference.name());
      entry.put("value", rounded(reference.value()));
      entry.put("meaning", reference.meaning());
      referenceList.add(entry);
    }
    root.put("references", referenceList);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(
          file, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root));
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
      sys.put("median", r.median().toMap());
      Map<String, Object> spread = new LinkedHashMap<>();
      spread.put("p50", range(r.range(Stats::p50)));
      spread.put("opsPerSec", range(r.range(Stats::opsPerSec)));
      spread.put("cpuMicrosPerOp", range(r.range(Stats::cpuMicrosPerOp)));
      spread.put("allocatedBytesPerOp", range(r.range(Stats::allocatedBytesPerOp)));
      spread.put("serverCpuMicrosPerOp", range(r.range(Stats::serverCpuMicrosPerOp)));
      sys.put("spread", spread);
      BASES.forEach(
          (base, suffix) -> {
            sys.put("p50Over" + suffix, ratio(s.p50Ratio(r.system(), base)));
            sys.put("opsOver" + suffix, ratio(s.opsRatio(r.system(), base)));
          });
      sys.put(
          "cpuOverFloorRaw", ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::cpuMicrosPerOp)));
      sys.put(
          "allocatedOverFloorRaw",
          ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::allocatedBytesPerOp)));
      sys.put(
          "serverCpuOverFloorRaw",
          ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::serverCpuMicrosPerOp)));
      sys.put("repetitions", Stats.toMaps(r.reps()));
      sys.put("errorSamples", r.errorSamples());
      systems.add(sys);
    }
    map.put("systems", systems);
    return map;
  }

  private static @Nullable Double ratio(java.util.Optional<Double> ratio) {
    return ratio.map(ResultsJson::round).orElse(null);
  }

  private static @Nullable List<Double> range(@Nullable Range range) {
    return range == null ? null : List.of(round(range.min()), round(range.max()));
  }

  private static Map<String, String> orderedBases() {
    Map<String, String> bases = new LinkedHashMap<>();
    bases.put(Systems.FLOOR_RAW, "FloorRaw");
    bases.put(Systems.FLOOR_N, "FloorN");
    bases.put(Systems.REDISSON_REDLOCK, "RedissonRedLock");
    return bases;
  }

  /**
   * To three decimals, or null for a figure that has no value (a system that did not run, a
   * division by zero): checked before rounding, since Math.round turns NaN into 0.
   */
  private static @Nullable Double rounded(double v) {
    return Double.isFinite(v) ? round(v) : null;
  }

  /** To three decimals; for figures that always have a value (a {@link Range}'s). */
  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
