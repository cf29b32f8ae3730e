package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduleJson;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RecordedRunTest {

  private static String results(Experiment e, long seed, FaultSchedule schedule) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", e.name());
    o.put("seed", seed);
    o.put("faults", schedule.faults().size());
    o.put("scheduleFaults", ScheduleJson.toJson(schedule));
    return new Gson().toJson(o);
  }

  @Test
  void parse_everyExperimentsSchedule_sameExperimentSeedAndSchedule() {
    for (Experiment e : Experiments.all()) {
      FaultSchedule schedule = ExperimentRunner.schedule(e, 11);

      RecordedRun run = RecordedRun.parse(results(e, 11, schedule));

      assertThat(run.experiment().name()).as(e.name()).isEqualTo(e.name());
      assertThat(run.seed()).isEqualTo(11);
      assertThat(run.schedule()).as(e.name()).isEqualTo(schedule);
    }
  }

  @Test
  void parse_checks_violationsAreTheFalseVerdictsButTheFaultEffects() {
    String json =
        "{\"name\":\"clock-step\",\"seed\":1,\"scheduleFaults\":[],\"checks\":["
            + "{\"checker\":\"mutual-exclusion\",\"verdict\":\"FALSE\"},"
            + "{\"checker\":\"tokens\",\"verdict\":\"TRUE\"},"
            + "{\"checker\":\"canary\",\"verdict\":\"FALSE\"},"
            + "{\"checker\":\"faults\",\"verdict\":\"FALSE\"}]}";

    RecordedRun run = RecordedRun.parse(json);

    assertThat(run.violated()).containsExactlyInAnyOrder("mutual-exclusion", "canary");
  }

  @Test
  void parse_unknownExperimentOrNoSchedule_rejected() {
    assertThatThrownBy(
            () -> RecordedRun.parse("{\"name\":\"nope\",\"seed\":1,\"scheduleFaults\":[]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> RecordedRun.parse("{\"name\":\"network\",\"seed\":1}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
