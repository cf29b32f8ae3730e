package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The standalone entry point's argument parsing; {@link FaultProxyMainIT} runs it as a process. */
final class FaultProxyMainTest {

  @Test
  void parse_noArguments_defaultsToLoopback8474() {
    assertThat(FaultProxyMain.parse(new String[0]))
        .contains(new FaultProxyMain.Options("127.0.0.1", 8474, OptionalLong.empty()));
  }

  @Test
  void parse_allOptions_areRead() {
    assertThat(
            FaultProxyMain.parse(new String[] {"--host", "0.0.0.0", "--port", "0", "--seed", "-5"}))
        .contains(new FaultProxyMain.Options("0.0.0.0", 0, OptionalLong.of(-5)));
  }

  @Test
  void parse_help_returnsEmpty() {
    assertThat(FaultProxyMain.parse(new String[] {"--help"})).isEmpty();
  }

  @Test
  void parse_badArguments_throwWithClearMessage() {
    assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--port", "http"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--port");
    assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--port", "70000"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("65535");
    assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--host"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--host needs a value");
    assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--verbose"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown argument --verbose");
  }
}
