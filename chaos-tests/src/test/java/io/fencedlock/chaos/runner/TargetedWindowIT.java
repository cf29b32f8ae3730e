package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.generator.Topology;
import io.fencedlock.chaos.generator.WindowWidening;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Targeted client faults for real: three client processes paused, one after the other, between the
 * two phases of a fenced acquire, each window widened by a latency toxic on that client's node
 * links. Each window must be reached by the client's first acquire granted after the arm (the
 * prediction is made to miss, so that acquire takes its second phase; left alone, most acquires
 * predict their token and skip it), and each toxic applied before the arm and removed at the heal,
 * after the signal; safety must hold.
 */
final class TargetedWindowIT {
  private static final int EPISODES = 3;

  private final ExperimentRunner runner =
      new ExperimentRunner(Path.of("target", "chaos"), System.out);

  @Test
  void pauseBetweenPhases_firstGrantedAcquireStoppedThereAndTheWindowWidened() throws IOException {
    Experiment experiment = Experiments.CLIENT_FAULTS;
    Topology topo = experiment.topology();
    long episode = topo.ttlMillis() + 2500;
    List<ScheduledFault> faults = new ArrayList<>();
    for (int client = 0; client < EPISODES; client++) {
      long start = 800 + client * (episode + 500);
      Fault.ClientFault pause =
          new Fault.ClientFault(
              client, Fault.ClientAction.PAUSE, Point.BETWEEN_PHASES, topo.ttlMillis());
      faults.add(
          new ScheduledFault(
              faults.size(), start, episode, WindowWidening.of(pause, topo).orElseThrow()));
      faults.add(new ScheduledFault(faults.size(), start, episode, pause));
    }

    RunReport report =
        runner.run(experiment, Seeds.next("targeted-window"), new FaultSchedule(faults));

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    List<JsonObject> history = history(report.dir());
    for (int c = 0; c < EPISODES; c++) {
      int client = c;
      String in = "client " + client + ", seed " + report.seed();
      int latencyId = 2 * client;
      int pauseId = latencyId + 1;
      long armed = nemesisDone(history, "fault_start", pauseId).orElseThrow();
      JsonObject stop =
          history.stream()
              .filter(op -> op.get("f").getAsString().equals("signal"))
              .filter(op -> value(op).get("faultId").getAsInt() == pauseId)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no signal for " + in));
      assertThat(value(stop).get("point").getAsString())
          .as(in)
          .isEqualTo(Point.BETWEEN_PHASES.wireName());
      long stopped = stop.get("time").getAsLong();
      assertThat(
              history.stream()
                  .filter(op -> op.get("f").getAsString().equals("acquire"))
                  .filter(op -> op.get("type").getAsString().equals("ok"))
                  .filter(op -> op.get("process").getAsInt() == client)
                  .filter(op -> invokedAt(history, op) > armed)
                  .filter(op -> op.get("time").getAsLong() < stopped)
                  .toList())
          .as("acquires granted after the arm without stopping between their phases, " + in)
          .isEmpty();
      long widened = nemesisDone(history, "fault_start", latencyId).orElseThrow();
      long narrowed = nemesisDone(history, "fault_stop", latencyId).orElseThrow();
      assertThat(widened).as("latency on before the arm, " + in).isLessThan(armed);
      assertThat(narrowed)
          .as("latency removed at the heal, after the signal, " + in)
          .isGreaterThan(stopped);
      JsonObject latency =
          history.stream()
              .filter(op -> op.get("process").getAsString().equals("nemesis"))
              .filter(op -> value(op).has("faultId"))
              .filter(op -> value(op).get("faultId").getAsInt() == latencyId)
              .findFirst()
              .map(TargetedWindowIT::value)
              .orElseThrow();
      assertThat(latency.get("latencyMillis").getAsLong()).isEqualTo(WindowWidening.MILLIS);
      assertThat(latency.get("targets").getAsString())
          .as(in)
          .contains("c" + client + ">n0")
          .doesNotContain("storage");
    }
  }

  /** When the nemesis's {@code f} of fault {@code id} completed OK. */
  private static Optional<Long> nemesisDone(List<JsonObject> history, String f, int id) {
    return history.stream()
        .filter(op -> op.get("process").getAsString().equals("nemesis"))
        .filter(op -> op.get("f").getAsString().equals(f))
        .filter(op -> op.get("type").getAsString().equals("ok"))
        .filter(op -> value(op).has("faultId") && value(op).get("faultId").getAsInt() == id)
        .map(op -> op.get("time").getAsLong())
        .findFirst();
  }

  /** The time of the invoke that {@code completion} completes: the process's last before it. */
  private static long invokedAt(List<JsonObject> history, JsonObject completion) {
    long at = -1;
    for (JsonObject op : history) {
      if (op == completion) {
        return at;
      }
      if (op.get("type").getAsString().equals("invoke")
          && op.get("process").equals(completion.get("process"))) {
        at = op.get("time").getAsLong();
      }
    }
    throw new AssertionError("not in the history: " + completion);
  }

  private static JsonObject value(JsonObject op) {
    return op.getAsJsonObject("value");
  }

  private static List<JsonObject> history(Path dir) throws IOException {
    try (var lines = Files.lines(dir.resolve("history.jsonl"))) {
      return lines.map(line -> JsonParser.parseString(line).getAsJsonObject()).toList();
    }
  }
}
