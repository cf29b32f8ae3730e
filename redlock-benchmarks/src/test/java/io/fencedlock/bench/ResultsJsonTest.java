package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
}
