package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ValidityTest {
  private static final Duration MAX = Duration.ofMinutes(1);

  @Test
  void drift_tenSecondTtl_isOnePercentPlusTwoMillis() {
    assertThat(Validity.driftNanos(Duration.ofSeconds(10), 0.01))
        .isEqualTo(Duration.ofMillis(102).toNanos());
  }

  @Test
  void deadline_countsFromTheStartOfTheAcquire() {
    FakeTicker ticker = new FakeTicker();
    long start = ticker.read();
    long deadline = Validity.deadline(start, Duration.ofSeconds(10), 0.01);

    ticker.advance(Duration.ofMillis(30)); // the acquire took 30 ms

    assertThat(Validity.remaining(deadline, ticker.read()))
        .isEqualTo(Duration.ofMillis(10_000 - 102 - 30));
  }

  @Test
  void remaining_pastDeadline_isZeroNotNegative() {
    FakeTicker ticker = new FakeTicker();
    long deadline = Validity.deadline(ticker.read(), Duration.ofMillis(100), 0.01);

    ticker.advance(Duration.ofSeconds(5));

    assertThat(Validity.remaining(deadline, ticker.read())).isZero();
  }

  @Test
  void checkTtl_notLargerThanDrift_throwsNamingParameter() {
    assertThatThrownBy(() -> Validity.checkTtl("ttl", Duration.ofMillis(2), 0.01, MAX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl must be larger than its drift allowance");
  }

  @Test
  void checkTtl_zeroOrNegative_saysItMustBePositive() {
    for (Duration ttl : List.of(Duration.ZERO, Duration.ofMillis(-5))) {
      assertThatThrownBy(() -> Validity.checkTtl("ttl", ttl, 0.01, MAX))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("ttl must be positive: " + ttl);
    }
  }

  @Test
  void checkTtl_justAboveDrift_isAccepted() {
    Validity.checkTtl("ttl", Duration.ofMillis(3), 0.01, MAX);
  }

  @Test
  void checkTtl_aboveMaximum_throwsNamingTheSettingAndItsCost() {
    assertThatThrownBy(() -> Validity.checkTtl("ttl", Duration.ofMinutes(2), 0.01, MAX))
        .hasMessageContaining("RedlockConfig.Builder.maxLeaseTtl")
        .hasMessageContaining("loses its memory")
        .hasMessageContaining("keepAlive");
  }

  @Test
  void checkTtl_fractionOfMillisecond_throws() {
    assertThatThrownBy(() -> Validity.checkTtl("ttl", Duration.ofNanos(10_500_000), 0.01, MAX))
        .hasMessageContaining("whole milliseconds");
  }

  @Test
  void checkTtl_nullOrNegative_throws() {
    assertThatThrownBy(() -> Validity.checkTtl("ttl", null, 0.01, MAX)).hasMessageContaining("ttl");
    assertThatThrownBy(() -> Validity.checkTtl("ttl", Duration.ofMillis(-5), 0.01, MAX))
        .hasMessageContaining("ttl");
  }
}
