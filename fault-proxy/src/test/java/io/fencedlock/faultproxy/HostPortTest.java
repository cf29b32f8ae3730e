package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** Go-compatible parsing and formatting of listen and upstream addresses. */
final class HostPortTest {

  @Test
  void parse_bracketedIpv6_stripsBrackets() {
    assertThat(HostPort.parse("[::1]:80")).isEqualTo(new HostPort("::1", 80));
  }

  @Test
  void parse_emptyHost_meansAnyInterface() {
    assertThat(HostPort.parse(":0")).isEqualTo(new HostPort("", 0));
  }

  @Test
  void parse_malformed_throwsGoStyleMessage() {
    assertThatThrownBy(() -> HostPort.parse("localhost"))
        .hasMessage("address localhost: missing port in address");
    assertThatThrownBy(() -> HostPort.parse("::1:80")).hasMessageContaining("too many colons");
    assertThatThrownBy(() -> HostPort.parse("host:http")).hasMessageContaining("invalid port");
  }

  @Test
  void canonical_localhost_resolvesToLoopbackIpv4() {
    assertThat(HostPort.canonical("localhost:1234")).isEqualTo("127.0.0.1:1234");
  }

  @Test
  void format_wildcardAndIpv6_likeGo() throws UnknownHostException {
    assertThat(HostPort.format(new InetSocketAddress(5))).isEqualTo("[::]:5");
    assertThat(HostPort.format(new InetSocketAddress(InetAddress.getByName("::1"), 6)))
        .isEqualTo("[::1]:6");
    assertThat(
            HostPort.format(new InetSocketAddress(InetAddress.getByName("fe80:0:0:0:1:0:0:2"), 7)))
        .isEqualTo("[fe80::1:0:0:2]:7");
  }
}
