package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What results.json writes for figures without a value: no Redis, no timing. */
final class ResultsJsonTest {

  @Test
  void write_aTargetWithoutAValue_writesNullNotZero(@TempDir Path dir) throws IOException {
    Map<String, ScenarioResult> run = new LinkedHashMap<>();
    List<Target> targets =
        List.of(
            Target.of("s1.fenced_p50_over_floorRaw", Double.NaN, 1.15, true, null, null, null, 0),
            Target.of(
                "s2.fenced_ops_over_floorRaw",
                Double.POSITIVE_INFINITY,
                0.9,
                false,
                null,
                null,
                "floor-raw-fenced",
                0.6));
    RunInfo info = new RunInfo("2026-12-01T00:00:00Z", "quick", 1, "w", 2, "os", "java", "6.2", "");

    Path file = dir.resolve("results.json");
    ResultsJson.write(file, info, run, targets);

    Map<String, JsonObject> byName = new LinkedHashMap<>();
    for (JsonElement e :
        JsonParser.parseString(Files.readString(file))
            .getAsJsonObject()
            .getAsJsonArray("targets")) {
      byName.put(e.getAsJsonObject().get("name").getAsString(), e.getAsJsonObject());
    }
    JsonObject noValue = byName.get("s1.fenced_p50_over_floorRaw");
    assertThat(noValue.get("value").isJsonNull()).as("NaN, written as null").isTrue();
    assertThat(noValue.get("met").getAsBoolean()).isFalse();
    assertThat(noValue.has("floorOfItsKind")).isFalse();
    JsonObject infinite = byName.get("s2.fenced_ops_over_floorRaw");
    assertThat(infinite.get("value").isJsonNull()).as("a division by zero").isTrue();
    assertThat(infinite.get("met").getAsBoolean()).as("an infinity is no result").isFalse();
    assertThat(infinite.getAsJsonObject("floorOfItsKind").get("value").getAsDouble())
        .isEqualTo(0.6);
    assertThat(infinite.getAsJsonObject("floorOfItsKind").get("met").getAsBoolean()).isFalse();
  }

  @Test
  void write_handoffsAgainstAZeroRoundTrip_writeNoValueInsteadOfFailing(@TempDir Path dir)
      throws IOException {
    Map<String, ScenarioResult> run = new LinkedHashMap<>();
    run.put("1", new ScenarioResult(new StorageBench.Titled("1", "scenario 1")));
    run.put("3", new ScenarioResult(new StorageBench.Titled("3", "scenario 3")));
    run.get("1").add(Systems.FLOOR_RAW, measurement(0)); // a round trip of 0 µs
    run.get("3").add(Systems.FENCED, measurement(500));
    List<Target> targets = Targets.check(run);
    assertThat(targets)
        .filteredOn(t -> t.name().equals("s3.fenced_handoff_p50_in_round_trips"))
        .singleElement()
        .satisfies(t -> assertThat(t.value()).as("no value, as a ratio to 0").isNaN());
    RunInfo info = new RunInfo("2026-12-01T00:00:00Z", "quick", 1, "w", 2, "os", "java", "6.2", "");

    Path file = dir.resolve("results.json");
    ResultsJson.write(file, info, run, targets); // an infinity here made Gson throw

    JsonObject handoff = null;
    for (JsonElement e :
        JsonParser.parseString(Files.readString(file))
            .getAsJsonObject()
            .getAsJsonArray("targets")) {
      if (e.getAsJsonObject()
          .get("name")
          .getAsString()
          .equals("s3.fenced_handoff_p50_in_round_trips")) {
        handoff = e.getAsJsonObject();
      }
    }
    assertThat(handoff).isNotNull();
    assertThat(handoff.get("value").isJsonNull()).isTrue();
    assertThat(handoff.get("met").getAsBoolean()).isFalse();
    assertThat(handoff.has("repetitions")).as("no repetition has a value").isFalse();
  }

  /** One second of 1,000 operations of exactly {@code p50Micros}. */
  private static Measurement measurement(double p50Micros) {
    Histogram latencies = Measurement.newHistogram();
    latencies.recordValueWithCount((long) (p50Micros * 1_000), 1_000);
    return new Measurement(
        latencies, Duration.ofSeconds(1).toNanos(), 0, 0, "", new ClientCost(1_000, 1_000, -1));
  }
}
