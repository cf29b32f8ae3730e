package io.fencedlock.bench;

import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes storage.json: the run, and per writer count and front end the median and each repetition.
 */
final class StorageResultsJson {
  private StorageResultsJson() {}

  static void write(Path file, BenchPlan plan, Path data, Map<Integer, ScenarioResult> results) {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("finishedAt", Instant.now().toString()); // written when the run ends
    run.put("repetitions", plan.reps());
    run.put(
        "window",
        "warm-up "
            + plan.later().warmup().toMillis()
            + " ms (first "
            + plan.first().warmup().toMillis()
            + " ms), measure "
            + plan.later().measure().toMillis()
            + " ms");
    run.put("cpus", Runtime.getRuntime().availableProcessors());
    run.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    run.put("jvmArgs", ManagementFactory.getRuntimeMXBean().getInputArguments());
    run.put("database", "SQLite in " + data.getParent());
    run.put("jdkHttpServerNoDelay", System.getProperty(JdkHttpBaseline.NODELAY));
    root.put("run", run);
    List<Object> list = new ArrayList<>();
    results.forEach(
        (writers, result) -> {
          for (SystemResult system : result.systems()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("writers", writers);
            entry.put("frontEnd", system.system());
            entry.put("median", system.median().toMap());
            entry.put(
                "opsOverJdk", result.opsRatio(system.system(), StorageFrontEnd.JDK).orElse(null));
            entry.put(
                "p50OverJdk", result.p50Ratio(system.system(), StorageFrontEnd.JDK).orElse(null));
            entry.put("repetitions", Stats.toMaps(system.reps()));
            entry.put("errorSamples", system.errorSamples());
            list.add(entry);
          }
        });
    root.put("results", list);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(
          file, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root));
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }
}
