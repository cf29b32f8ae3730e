package io.fencedlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code ./fencedlock demo}'s options. */
final class DemoArgsTest {

  @Test
  void demoParse_noArguments_usesDefaultReport() {
    assertThat(DemoArgs.parse()).isEqualTo(new DemoArgs(false, DemoArgs.DEFAULT_REPORT));
  }

  @Test
  void demoParse_reportAndHelp_areRecognised() {
    assertThat(DemoArgs.parse("--report", "r.html").report()).isEqualTo(Path.of("r.html"));
    assertThat(DemoArgs.parse("--help").help()).isTrue();
    assertThat(DemoArgs.parse("-h").help()).isTrue();
  }

  @Test
  void demoParse_unknownOptionOrMissingValue_throws() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> DemoArgs.parse("--fast"))
        .withMessageContaining("unknown option --fast");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> DemoArgs.parse("--report"))
        .withMessageContaining("missing value");
  }
}
