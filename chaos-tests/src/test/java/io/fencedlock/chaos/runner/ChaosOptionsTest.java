package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.Backend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class ChaosOptionsTest {

  @Test
  void parse_noArguments_everyExperimentOnceWithRandomSeed() {
    ChaosOptions o = ChaosOptions.parse(new String[0]);

    assertThat(o.experiments()).isEqualTo(Experiments.all());
    assertThat(o.schedules()).isEqualTo(1);
    assertThat(o.backend()).isEqualTo(Backend.PROCESS);
    assertThat(o.help()).isFalse();
  }

  @Test
  void parse_allOptions_taken() {
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--experiments",
              "client-pause,majority-down",
              "--schedules",
              "3",
              "--seed",
              "-42",
              "--faults",
              "2",
              "--out",
              "/tmp/x",
              "--backend",
              "container"
            });

    assertThat(o.experiments())
        .containsExactly(Experiments.CLIENT_PAUSE, Experiments.MAJORITY_DOWN);
    assertThat(o.schedules()).isEqualTo(3);
    assertThat(o.seed()).isEqualTo(-42);
    assertThat(o.faults()).hasValue(2);
    assertThat(o.out()).isEqualTo(Path.of("/tmp/x"));
    assertThat(o.backend()).isEqualTo(Backend.CONTAINER);
  }

  @Test
  void parse_help_setsHelpAndUsageNamesExperiments() {
    assertThat(ChaosOptions.parse(new String[] {"--help"}).help()).isTrue();
    assertThat(ChaosOptions.usage()).contains("minority-faults", "amnesia-unsafe", "--seed");
  }

  @Test
  void parse_unknownExperiment_rejected() {
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--experiments", "nope"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown experiment 'nope'");
  }

  @Test
  void parse_badNumberOrMissingValue_rejected() {
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--schedules", "0"}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--seed", "x"}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--seed"}))
        .hasMessageContaining("missing value");
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--bogus", "1"}))
        .hasMessageContaining("unknown option");
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--backend", "vm"}))
        .hasMessageContaining("--backend must be process or container");
  }
}
