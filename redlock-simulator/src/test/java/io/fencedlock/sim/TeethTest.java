package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each bug the simulator is meant to find, put back, is found within its stated number of schedules
 * ({@link Teeth#within()}), by the invariant that should catch it. The seed is fixed, so a change
 * that blunts a tooth fails here.
 */
final class TeethTest {
  private static final Logger log = LoggerFactory.getLogger(TeethTest.class);
  private static final long SEED = 1;

  static Stream<Teeth> teeth() {
    return Teeth.ALL.stream();
  }

  @ParameterizedTest
  @MethodSource("teeth")
  void hunt_bugPutBack_foundWithinItsBound(Teeth tooth) {
    Teeth.Hunt hunt = tooth.hunt(SEED, tooth.within());
    log.info(
        "{}: found after {} schedules (campaign seed {}, bound {}): {}",
        tooth.bug().cliName(),
        hunt.index() + 1,
        SEED,
        tooth.within(),
        hunt.index() < 0 ? "-" : hunt.outcome().failures());
    assertThat(hunt.index())
        .as("%s not found within %d schedules", tooth.bug(), tooth.within())
        .isNotNegative();
    assertThat(hunt.outcome().failures())
        .anySatisfy(v -> assertThat(tooth.kinds()).contains(v.kind()));
  }
}
