package io.fencedlock.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.TestAbortedException;

final class DockerRequirementTest {

  @Test
  void check_engineAnswers_letsTestsRun() {
    assertThat(DockerRequirement.check(Optional.empty(), true)).isEmpty();
    assertThat(DockerRequirement.check(Optional.empty(), false)).isEmpty();
  }

  @Test
  void check_noEngineOutsideCi_skipsWithTheReason() {
    assertThat(DockerRequirement.check(Optional.of("no Docker engine answers (x)"), false))
        .get()
        .isInstanceOf(TestAbortedException.class)
        .extracting(Throwable::getMessage)
        .isEqualTo("container tests skipped: no Docker engine answers (x)");
  }

  @Test
  void check_noEngineInCi_failsWithTheReason() {
    assertThat(DockerRequirement.check(Optional.of("no Docker engine answers (x)"), true))
        .get()
        .isInstanceOf(ExtensionConfigurationException.class)
        .extracting(Throwable::getMessage)
        .isEqualTo("container nodes requested and CI=true, but no Docker engine answers (x)");
  }
}
