package io.fencedlock.storage.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class ArgsTest {

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
    assertThatIllegalArgumentException().isThrownBy(() -> DemoArgs.parse("--fast"))
        .withMessageContaining("unknown option --fast");
    assertThatIllegalArgumentException().isThrownBy(() -> DemoArgs.parse("--report"))
        .withMessageContaining("missing value");
  }

  @Test
  void serveParse_port_isRecognised() {
    assertThat(ServeArgs.parse()).isEqualTo(new ServeArgs(false, 0));
    assertThat(ServeArgs.parse("--port", "8080")).isEqualTo(new ServeArgs(false, 8080));
    assertThat(ServeArgs.parse("--help").help()).isTrue();
  }

  @Test
  void serveParse_badPort_throws() {
    assertThatIllegalArgumentException().isThrownBy(() -> ServeArgs.parse("--port", "http"))
        .withMessageContaining("--port must be 0-65535");
    assertThatIllegalArgumentException().isThrownBy(() -> ServeArgs.parse("--port", "70000"))
        .withMessageContaining("--port must be 0-65535");
    assertThatIllegalArgumentException().isThrownBy(() -> ServeArgs.parse("--port"))
        .withMessageContaining("missing value");
    assertThatIllegalArgumentException().isThrownBy(() -> ServeArgs.parse("-p", "1"))
        .withMessageContaining("unknown option -p");
  }
}
