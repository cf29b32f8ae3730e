package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class CampaignTest {

  @Test
  void shares_thousandOverCatalogue_addUpAndFreshClustersGetLess() {
    Map<Experiment, Integer> shares = Campaign.shares(Experiments.all(), 1000);

    assertThat(shares.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(1000);
    assertThat(shares.keySet()).containsExactlyElementsOf(Experiments.all());
    int fresh = shares.get(Experiments.AMNESIA_SAFE);
    int shared = shares.get(Experiments.MINORITY);
    assertThat(fresh).isPositive().isLessThan(shared);
  }

  @Test
  void shares_fewerThanExperiments_oneEach() {
    Map<Experiment, Integer> shares = Campaign.shares(Experiments.all(), 3);

    assertThat(shares.values()).allMatch(n -> n == 1);
  }
}
