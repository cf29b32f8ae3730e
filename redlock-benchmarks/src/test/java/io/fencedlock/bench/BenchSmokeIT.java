package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny pass of every scenario and system: checks the outputs' shape, never the timings. */
final class BenchSmokeIT {
  /** floor-raw and the scripted floors, which explain scenarios 1 and 2 and run only there. */
  private static final List<String> FLOORS_OF_1_AND_2 =
      List.of(Systems.FLOOR_RAW, Systems.FLOOR_RAW_CAD, Systems.FLOOR_RAW_FENCED);

  @Test
  void run_tinyPlan_writesResultsWithEveryScenarioSystemAndTarget(@TempDir Path dir)
      throws IOException {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    String provenance = "Made by `./fencedlock bench --quick` at commit `abc1234`.\n\n";
    BenchMain.run(
        BenchPlan.smoke(),
        true,
        provenance,
        dir,
        new PrintStream(progress, true, StandardCharsets.UTF_8));

    assertThat(Files.readString(dir.resolve("results.md"))).startsWith(provenance + "### Scenario");

    JsonObject results =
        JsonParser.parseString(Files.readString(dir.resolve("results.json"))).getAsJsonObject();
    JsonArray scenarios = results.getAsJsonArray("scenarios");
    assertThat(scenarios)
        .extracting(s -> s.getAsJsonObject().get("id").getAsString())
        .containsExactly("1", "1-many", "1-idle", "2", "3", "4");
    for (JsonElement scenario : scenarios) {
      String id = scenario.getAsJsonObject().get("id").getAsString();
      JsonArray systems = scenario.getAsJsonObject().getAsJsonArray("systems");
      if (id.equals("1-idle")) {
        assertThat(systems)
            .extracting(s -> s.getAsJsonObject().get("name").getAsString())
            .containsExactlyInAnyOrderElementsOf(UncontendedScenario.IDLE_SYSTEMS);
      } else {
        assertThat(systems.size()).isGreaterThanOrEqualTo(4);
      }
      // floor-raw never waits, so scenario 3 has its own raw floors instead, and only it has them;
      // the scripted floors explain scenarios 1 and 2, and run only there.
      List<String> floors =
          switch (id) {
            case "3" -> Systems.HANDOFF_FLOORS;
            case "1", "2" -> FLOORS_OF_1_AND_2;
            default -> List.of(Systems.FLOOR_RAW);
          };
      assertThat(systems)
          .as("scenario %s", id)
          .extracting(s -> s.getAsJsonObject().get("name").getAsString())
          .containsAll(floors)
          .doesNotContain(id.equals("3") ? Systems.FLOOR_RAW : Systems.FLOOR_RAW_HANDOFF);
      if (!floors.equals(FLOORS_OF_1_AND_2)) {
        assertThat(systems)
            .as("scenario %s", id)
            .extracting(s -> s.getAsJsonObject().get("name").getAsString())
            .doesNotContain(Systems.FLOOR_RAW_CAD, Systems.FLOOR_RAW_FENCED);
      }
      for (JsonElement system : systems) {
        JsonObject median = system.getAsJsonObject().getAsJsonObject("median");
        assertThat(median.keySet()).contains("p50", "p99", "p999", "max", "opsPerSec", "count");
        // A cost per operation needs an operation: under load a system can complete none in the
        // smoke plan's 200 ms window (seen in scenario 3, whose first handoff waits for eight
        // clients to start), and then it has no cost figures. The shape is checked where it has.
        if (median.get("count").getAsLong() > 0) {
          assertThat(median.keySet())
              .contains("cpuMicrosPerOp", "allocatedBytesPerOp", "serverCpuMicrosPerOp");
        }
        assertThat(system.getAsJsonObject().getAsJsonObject("spread").keySet())
            .contains("p50", "cpuMicrosPerOp", "serverCpuMicrosPerOp");
        String name = system.getAsJsonObject().get("name").getAsString();
        if (Systems.HANDOFF_FLOORS.contains(name) || FLOORS_OF_1_AND_2.contains(name)) {
          // A floor that failed its steps (a script not loaded, a take refused) would still
          // report the few that passed.
          assertThat(median.get("errors").getAsLong()).as(name).isZero();
        }
      }
    }
    JsonArray targets = results.getAsJsonArray("targets");
    assertThat(targets)
        .extracting(t -> t.getAsJsonObject().get("name").getAsString())
        .contains(
            "s1.unfenced_p50_over_floorRaw",
            "s1.fenced_p50_over_floorRaw",
            "s1.fenced_cpu_per_op_over_floorRaw",
            "s1-many.fenced_p50_over_floorRaw",
            "s2.fenced_ops_over_floorRaw",
            "s3.fenced8instances_handoff_p50_in_round_trips",
            "s1.redissonRedLock_p50_over_fenced",
            "s4.redissonRedLock_p50_over_fenced");
    for (JsonElement target : targets) {
      assertThat(target.getAsJsonObject().keySet())
          .contains("name", "value", "limit", "met", "repetitions");
    }
    // Each target whose floor of its kind ran carries that floor's figure beside its own.
    Map<String, String> floorOf =
        Map.of(
            "s1.fenced_p50_over_floorRaw", "floor-raw-fenced",
            "s2.fenced_ops_over_floorRaw", "floor-raw-fenced",
            "s1.unfenced_p50_over_floorRaw", "floor-raw-cad",
            "s3.fenced8instances_handoff_p50_in_round_trips", "floor-raw-handoff-2-steps-script");
    for (JsonElement target : targets) {
      JsonObject t = target.getAsJsonObject();
      String floor = floorOf.get(t.get("name").getAsString());
      if (floor != null) {
        JsonObject check = t.getAsJsonObject("floorOfItsKind");
        assertThat(check).as(t.get("name").getAsString()).isNotNull();
        assertThat(check.get("system").getAsString()).isEqualTo(floor);
        // Not positive: a floor may finish no handoff in the tiny plan's window (p50 0).
        assertThat(check.get("value").getAsDouble()).isNotNegative();
        assertThat(check.keySet()).contains("met");
      }
    }
    JsonArray references = results.getAsJsonArray("references");
    assertThat(references)
        .extracting(r -> r.getAsJsonObject().get("name").getAsString())
        .contains(
            "s1.redissonRedLock_p50_over_floorN",
            "s4.redissonRedLock_p50_over_floorN",
            "s1-idle.floorRaw_p50_over_s1",
            "s3.fenced8instances_handoff_p50_less_idle_surcharge_in_round_trips",
            "s3.floorRawHandoff_handoff_p50_in_round_trips",
            "s3.fenced8instances_handoff_p50_over_floorRawHandoffScript",
            "s3.floorRawHandoff2StepsScript_handoff_p50_in_round_trips",
            "s3.fenced8instances_handoff_p50_over_floorRawHandoff2StepsScript");
    assertThat(results.get("roundTripSystem").getAsString()).isEqualTo(Systems.FLOOR_RAW);
    assertThat(results.get("roundTripMicros").getAsDouble()).isPositive();
    assertThat(results.get("idleSurchargeMicros").isJsonNull()).isFalse();
    assertThat(scenarios.get(5).getAsJsonObject().get("title").getAsString())
        .contains("1 ms ± 0.2 ms");
    assertThat(Files.readString(dir.resolve("report.html")))
        .contains("<svg", "polyline", "CPU µs/op", "server CPU µs/op");
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("scenario 1 ", "scenario 1-many", "scenario 1-idle", "scenario 4");
  }

  @Test
  void storage_tinyPlan_measuresBothFrontEndsAtEachWriterCountWithoutErrors(@TempDir Path dir)
      throws IOException {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    StorageBench.run(
        BenchPlan.smoke(), dir, new PrintStream(progress, true, StandardCharsets.UTF_8));

    JsonArray results =
        JsonParser.parseString(Files.readString(dir.resolve("storage.json")))
            .getAsJsonObject()
            .getAsJsonArray("results");
    assertThat(results).hasSize(2 * StorageBench.WRITERS.size());
    java.util.Map<String, Double> bestPerFrontEnd = new java.util.HashMap<>();
    for (JsonElement result : results) {
      JsonObject median = result.getAsJsonObject().getAsJsonObject("median");
      assertThat(median.get("errors").getAsLong()).isZero();
      bestPerFrontEnd.merge(
          result.getAsJsonObject().get("frontEnd").getAsString(),
          median.get("opsPerSec").getAsDouble(),
          Math::max);
    }
    // The smoke plan's windows are tiny: on a loaded machine one of them may see no write
    // complete. Each front end must still have written in some of them.
    assertThat(bestPerFrontEnd)
        .hasSize(2)
        .allSatisfy((frontEnd, ops) -> assertThat(ops).as(frontEnd).isPositive());
    assertThat(Files.readString(dir.resolve("storage.md")))
        .contains("storage-jetty", "storage-jdk-httpserver");
  }

  @Test
  void help_printsUsageOnStdoutAndExitsZero(@TempDir Path logs) {
    try (ChildProcess bench =
        ChildProcess.start(logs, ChildProcess.java(BenchMain.class, "--help"))) {
      assertThat(bench.awaitExit(Timing.PROCESS)).as(bench.output()).isZero();
      assertThat(bench.stdout()).startsWith("usage: ./fencedlock bench");
      assertThat(bench.stderr()).isEmpty();
    }
  }

  @Test
  void parse_storage_isRead() {
    assertThat(BenchOptions.parse(List.of("--storage", "--quick"), Path.of("d")).storage())
        .isTrue();
  }

  @Test
  void parse_soakAndOut_areRead() {
    BenchOptions options = BenchOptions.parse(List.of("--soak", "12", "--out", "x"), Path.of("d"));

    assertThat(options.soakMinutes()).hasValue(12);
    assertThat(options.out()).isEqualTo(Path.of("x"));
    assertThat(options.quick()).isFalse();
  }
}
