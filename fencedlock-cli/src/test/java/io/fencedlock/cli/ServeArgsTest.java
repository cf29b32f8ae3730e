package io.fencedlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** {@code ./fencedlock serve}'s options. */
final class ServeArgsTest {

  @Test
  void serveParse_port_isRecognised() {
    assertThat(ServeArgs.parse()).isEqualTo(new ServeArgs(false, 0));
    assertThat(ServeArgs.parse("--port", "8080")).isEqualTo(new ServeArgs(false, 8080));
    assertThat(ServeArgs.parse("--help").help()).isTrue();
  }

  @Test
  void serveParse_badPort_throws() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ServeArgs.parse("--port", "http"))
        .withMessageContaining("--port must be 0-65535");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ServeArgs.parse("--port", "70000"))
        .withMessageContaining("--port must be 0-65535");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ServeArgs.parse("--port"))
        .withMessageContaining("missing value");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ServeArgs.parse("-p", "1"))
        .withMessageContaining("unknown option -p");
  }
}
