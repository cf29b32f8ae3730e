package io.fencedlock.cli.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.redlock.RedlockConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ExecArgsTest {

  @Test
  void parse_allOptions_readsThemAndTheCommandAfterTheSeparator() {
    ExecArgs args =
        ExecArgs.parse(
            new String[] {
              "--nodes",
              "redis://a:1,redis://b:2",
              "--ttl",
              "500ms",
              "--wait",
              "0s",
              "--grace",
              "2s",
              "--max-hold",
              "5m",
              "orders:42",
              "--",
              "sh",
              "-c",
              "echo --ttl"
            },
            Map.of());

    assertThat(args.nodes()).containsExactly("redis://a:1", "redis://b:2");
    assertThat(args.ttl()).isEqualTo(Duration.ofMillis(500));
    assertThat(args.maxWait()).isZero();
    assertThat(args.grace()).isEqualTo(Duration.ofSeconds(2));
    assertThat(args.maxHold()).isEqualTo(Duration.ofMinutes(5));
    assertThat(args.resource()).isEqualTo("orders:42");
    assertThat(args.command()).containsExactly("sh", "-c", "echo --ttl");
  }

  @Test
  void parse_nodesFromTheEnvironment_whenNoOptionGivesThem() {
    ExecArgs args =
        ExecArgs.parse(
            new String[] {"r", "--", "true"},
            Map.of("FENCEDLOCK_NODES", "redis://x:1, redis://y:2"));
    assertThat(args.nodes()).containsExactly("redis://x:1", "redis://y:2");
  }

  @Test
  void parse_badInput_throwsWithAMessageForTheUser() {
    Map<String, String> nodes = Map.of("FENCEDLOCK_NODES", "redis://x:1");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"r", "true"}, nodes))
        .hasMessageContaining("--");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"r", "--"}, nodes))
        .hasMessageContaining("COMMAND");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"--", "true"}, nodes))
        .hasMessageContaining("RESOURCE");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"r", "--", "true"}, Map.of()))
        .hasMessageContaining("FENCEDLOCK_NODES");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"--ttl", "10", "r", "--", "true"}, nodes))
        .hasMessageContaining("duration");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"--bogus", "r", "--", "true"}, nodes))
        .hasMessageContaining("unknown option");
    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"a", "b", "--", "true"}, nodes))
        .hasMessageContaining("one RESOURCE");
  }

  @Test
  void parse_ttlOverTheLibrarysMaxLeaseTtl_isRefusedNamingTheOptionAndItsCost() {
    Map<String, String> nodes = Map.of("FENCEDLOCK_NODES", "redis://a:1");

    assertThatThrownBy(() -> ExecArgs.parse(new String[] {"--ttl", "5m", "r", "--", "true"}, nodes))
        .hasMessageContaining("--max-lease-ttl")
        .hasMessageContaining("loses its memory");
  }

  @Test
  void parse_maxLeaseTtl_defaultsToTheLibrarysAndRaisesTheTtlCapWhenGiven() {
    Map<String, String> nodes = Map.of("FENCEDLOCK_NODES", "redis://a:1");

    assertThat(ExecArgs.parse(new String[] {"r", "--", "true"}, nodes).maxLeaseTtl())
        .isEqualTo(RedlockConfig.DEFAULT_MAX_LEASE_TTL);
    ExecArgs raised =
        ExecArgs.parse(
            new String[] {"--ttl", "5m", "--max-lease-ttl", "5m", "r", "--", "true"}, nodes);
    assertThat(raised.ttl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(raised.maxLeaseTtl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(ExecArgs.USAGE).contains("--max-lease-ttl");
  }

  @Test
  void parse_waitZero_isOneAttempt_asTheUsageSays() {
    Map<String, String> nodes = Map.of("FENCEDLOCK_NODES", "redis://a:1");

    assertThat(ExecArgs.USAGE).contains("0 = one attempt");
    assertThat(ExecArgs.parse(new String[] {"--wait", "0", "r", "--", "true"}, nodes).maxWait())
        .isZero();
  }

  @Test
  void parse_help_needsNothingElse() {
    assertThat(ExecArgs.parse(new String[] {"--help"}, Map.of()).help()).isTrue();
    assertThat(ExecArgs.USAGE).contains("FENCEDLOCK_TOKEN").contains("curl").contains("76");
    assertThat(List.of(ExitCode.values())).extracting(code -> code.code).doesNotHaveDuplicates();
  }
}
