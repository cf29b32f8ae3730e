package io.fencedlock.testkit.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one knob: property over environment over 1, and only positive numbers. */
final class TimingTest {

  @Test
  void parseScale_neitherSet_isOne() {
    assertThat(Timing.parseScale(null, null)).isEqualTo(1.0);
    assertThat(Timing.parseScale(null, " ")).isEqualTo(1.0);
  }

  @Test
  void parseScale_propertyAndEnvironment_propertyWins() {
    assertThat(Timing.parseScale("2.5", "4")).isEqualTo(2.5);
    assertThat(Timing.parseScale(null, "4")).isEqualTo(4.0);
  }

  @Test
  void parseScale_notAPositiveNumber_namesTheKnob() {
    assertThatThrownBy(() -> Timing.parseScale("fast", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Timing.SCALE_PROPERTY);
    assertThatThrownBy(() -> Timing.parseScale(null, "0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Timing.SCALE_ENV);
    assertThatThrownBy(() -> Timing.parseScale("-1", null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Timing.parseScale("NaN", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void scaled_andBounds_followTheScale() {
    double scale = Timing.scale();

    assertThat(Timing.scaled(Duration.ofSeconds(2)))
        .isEqualTo(Duration.ofNanos((long) (2e9 * scale)));
    assertThat(Timing.AWAIT).isEqualTo(Timing.scaled(Duration.ofSeconds(10)));
    assertThat(Timing.generousUpperBound(Duration.ofMillis(100)))
        .isEqualTo(Duration.ofMillis(100).plus(Timing.scaled(Duration.ofSeconds(3))));
  }
}
