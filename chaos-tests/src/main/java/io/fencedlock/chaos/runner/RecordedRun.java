package io.fencedlock.chaos.runner;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduleJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a {@code results.json} recorded, enough to run it again: the experiment (from the catalogue,
 * with the recorded fault count), the seed (ops and proxy draws) and the schedule itself (not
 * regenerated from the seed, so a shrunk or hand-edited schedule replays as written). Immutable.
 *
 * @param experiment the experiment
 * @param seed the seed
 * @param schedule the faults
 */
record RecordedRun(Experiment experiment, long seed, FaultSchedule schedule) {

  /**
   * Reads {@code results.json}.
   *
   * @throws IllegalArgumentException if it names no known experiment or has no schedule
   */
  static RecordedRun read(Path resultsJson) {
    String text;
    try {
      text = Files.readString(resultsJson, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resultsJson, e);
    }
    return parse(text);
  }

  static RecordedRun parse(String resultsJson) {
    JsonObject o = JsonParser.parseString(resultsJson).getAsJsonObject();
    if (!o.has("name") || !o.has("seed") || !o.has("scheduleFaults")) {
      throw new IllegalArgumentException("not a results.json: needs name, seed and scheduleFaults");
    }
    String name = o.get("name").getAsString();
    Experiment experiment =
        Experiments.byName(name)
            .orElseThrow(() -> new IllegalArgumentException("unknown experiment '" + name + "'"));
    if (o.has("faults")) {
      experiment = experiment.withFaults(o.get("faults").getAsInt());
    }
    return new RecordedRun(
        experiment, o.get("seed").getAsLong(), ScheduleJson.fromJson(o.get("scheduleFaults")));
  }
}
