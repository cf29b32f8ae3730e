package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class RenewalTest {

  @Test
  void defaults_keepALongRunningJobAliveForADay() {
    assertThat(Renewal.defaults().maxHold()).isEqualTo(Duration.ofHours(24));
    assertThat(Renewal.defaults().maxRenewals()).isEqualTo(Integer.MAX_VALUE);
  }
}
