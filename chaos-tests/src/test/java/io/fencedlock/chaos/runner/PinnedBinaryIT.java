package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's nodes must run the binary pinned at its start: real redis-server processes checked
 * against the pin, and against a pin of another binary (a copy of the real one with a byte
 * appended, so another file with another SHA-256), which must be refused, by the check and by a
 * campaign, whose run then counts as an error that fails it.
 */
final class PinnedBinaryIT {
  @TempDir Path dir;

  @Test
  void verify_nodesRunThePinnedBinary_passes() {
    PinnedBinary pinned = PinnedBinary.resolve();

    try (RedisNodes nodes = RedisNodes.builder().nodes(2).start()) {
      assertThatCode(() -> pinned.verify(nodes)).doesNotThrowAnyException();
    }
    assertThat(pinned.sha256()).hasSize(64);
  }

  @Test
  void verify_nodesRunAnotherBinary_refusedNamingTheNode() throws IOException {
    PinnedBinary other = otherBinary();

    try (RedisNodes nodes = RedisNodes.builder().nodes(2).start()) {
      assertThatThrownBy(() -> other.verify(nodes))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("node n0 runs redis-server " + other.version())
          .hasMessageContaining("not the campaign's pinned binary: " + other.describe());
    }
  }

  @Test
  void verify_samePathAndVersionOtherHash_refused() {
    PinnedBinary real = PinnedBinary.resolve();
    PinnedBinary wrongHash = new PinnedBinary(real.version(), real.path(), "0".repeat(64));

    try (RedisNodes nodes = RedisNodes.builder().nodes(1).start()) {
      assertThatThrownBy(() -> wrongHash.verify(nodes))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("(sha256 " + real.sha256() + ")");
    }
  }

  @Test
  void campaign_pinnedBinary_theRunPassesTheChecksBeforeAndAfterIt() {
    PinnedBinary real = PinnedBinary.resolve();
    Campaign campaign = quietCampaign(real);

    // The check after the run (nodes a fault restarted) must not refuse the pinned binary.
    List<RunReport> reports = campaign.run(Map.of(Experiments.MINORITY.withFaults(1), 1), 3, 1);

    assertThat(campaign.errors()).isEmpty();
    assertThat(reports).hasSize(1);
  }

  @Test
  void campaign_nodesRunAnotherBinary_runIsAnErrorAndTheCampaignFails() throws IOException {
    PinnedBinary other = otherBinary();
    Campaign campaign = quietCampaign(other);

    List<RunReport> reports = campaign.run(Map.of(Experiments.MINORITY.withFaults(1), 1), 1, 1);

    assertThat(reports).isEmpty();
    assertThat(campaign.errors())
        .singleElement()
        .asString()
        .contains("not the campaign's pinned binary");
    CampaignReport report =
        new CampaignReport("c", reports, campaign.errors(), Duration.ZERO, other.describe());
    assertThat(report.passedAll()).isFalse();
    assertThat(report.markdown()).contains(other.describe());
  }

  /** A campaign on processes that must run {@code pinned}, printing nothing. */
  private Campaign quietCampaign(PinnedBinary pinned) {
    return new Campaign(
        Backend.PROCESS,
        dir.resolve("out"),
        new PrintStream(OutputStream.nullOutputStream()),
        pinned);
  }

  /** A pin of a copy of the real binary with one byte appended: another file, another hash. */
  private PinnedBinary otherBinary() throws IOException {
    PinnedBinary real = PinnedBinary.resolve();
    Path copy = dir.resolve("redis-server");
    Files.copy(real.path(), copy);
    Files.write(copy, new byte[] {0}, StandardOpenOption.APPEND);
    return new PinnedBinary(real.version(), copy, PinnedBinary.sha256(copy));
  }
}
