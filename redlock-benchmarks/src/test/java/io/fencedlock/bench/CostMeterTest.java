package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class CostMeterTest {
  private static final long[] NONE = {};
  private static final long SELF = 1;

  @Test
  void between_threadsPresentInBoth_countWhatEachAllocatedMeanwhile() {
    CostMeter.Snapshot start = snapshot(1_000, 0, new long[] {2, 3}, new long[] {100, 1_000});
    CostMeter.Snapshot end = snapshot(5_000, 0, new long[] {2, 3}, new long[] {150, 1_700});

    ClientCost cost = CostMeter.between(start, end, NONE);

    assertThat(cost).isEqualTo(new ClientCost(4_000, 50 + 700, 0));
  }

  @Test
  void between_threadStartedMeanwhile_countsAllItAllocated_endedOneCountsNothing() {
    CostMeter.Snapshot start = snapshot(0, 0, new long[] {2, 3}, new long[] {100, 1_000});
    CostMeter.Snapshot end = snapshot(0, 0, new long[] {2, 4, 5}, new long[] {100, 300, -1});

    // 3 ended (gone from the list), 4 is new, 5 ended between listing and reading (-1).
    assertThat(CostMeter.between(start, end, NONE).allocatedBytes()).isEqualTo(300);
  }

  @Test
  void between_excludedThreads_countNeitherCpuNorAllocation() {
    CostMeter.Snapshot start = snapshot(10_000, 2_000, new long[] {2, 7}, new long[] {0, 0});
    CostMeter.Snapshot end = snapshot(20_000, 5_000, new long[] {2, 7}, new long[] {40, 9_999});

    ClientCost cost = CostMeter.between(start, end, new long[] {7});

    assertThat(cost).isEqualTo(new ClientCost(10_000 - 3_000, 40, 0));
  }

  @Test
  void between_samplingThread_countsFromTheEndOfOneSampleToTheStartOfTheNext() {
    // The sampler allocated 64 bytes taking each sample; 500 in between.
    CostMeter.Snapshot start =
        new CostMeter.Snapshot(0, 0, 0, new long[] {SELF}, new long[] {1_032}, SELF, 1_000, 1_064);
    CostMeter.Snapshot end =
        new CostMeter.Snapshot(0, 0, 0, new long[] {SELF}, new long[] {1_596}, SELF, 1_564, 1_628);

    assertThat(CostMeter.between(start, end, NONE).allocatedBytes()).isEqualTo(500);
  }

  @Test
  void between_unknownProcessCpu_isNegative() {
    CostMeter.Snapshot start = snapshot(-1, 0, NONE, NONE);
    CostMeter.Snapshot end = snapshot(-1, 0, NONE, NONE);

    assertThat(CostMeter.between(start, end, NONE).cpuMicrosPer(1)).isNaN();
  }

  @Test
  void since_allocationOnTheMeasuringThread_isCounted() {
    CostMeter meter = CostMeter.create(ServerCpu.NONE);
    CostMeter.Snapshot start = meter.start();
    byte[][] kept = new byte[10][];
    for (int i = 0; i < kept.length; i++) {
      kept[i] = new byte[100_000];
    }

    ClientCost cost = meter.since(start);

    assertThat(kept[9]).hasSize(100_000);
    assertThat(cost.allocatedBytes()).isBetween(1_000_000L, 1_200_000L);
  }

  @Test
  void between_serverCpu_isTheDifferenceOfTheTwoReadings() {
    CostMeter.Snapshot start = snapshot(0, 0, 70_000_000, NONE, NONE);
    CostMeter.Snapshot end = snapshot(0, 0, 120_000_000, NONE, NONE);

    assertThat(CostMeter.between(start, end, NONE).serverCpuNanos()).isEqualTo(50_000_000);
  }

  @Test
  void between_unknownServerCpu_isNegative_andLeavesTheClientsFigures() {
    CostMeter.Snapshot start = snapshot(1_000, 0, -1, NONE, NONE);
    CostMeter.Snapshot end = snapshot(3_000, 0, 50_000_000, NONE, NONE);

    ClientCost cost = CostMeter.between(start, end, NONE);

    assertThat(cost.serverCpuMicrosPer(1)).isNaN();
    assertThat(cost.cpuNanos()).isEqualTo(2_000);
  }

  @Test
  void since_withoutServers_hasNoServerCpu() {
    CostMeter meter = CostMeter.create(ServerCpu.NONE);

    assertThat(meter.since(meter.start()).serverCpuNanos()).isNegative();
  }

  @Test
  void clientCost_perOperation_dividesAndAdds() {
    ClientCost cost =
        new ClientCost(3_000_000, 9_000, 2_000_000).plus(new ClientCost(1_000_000, 1_000, 500_000));

    assertThat(cost.cpuMicrosPer(100)).isEqualTo(40.0);
    assertThat(cost.bytesPer(100)).isEqualTo(100.0);
    assertThat(cost.serverCpuMicrosPer(100)).isEqualTo(25.0);
    assertThat(cost.bytesPer(0)).isNaN();
    assertThat(cost.serverCpuMicrosPer(0)).isNaN();
    assertThat(new ClientCost(-1, 5, 0).plus(cost).cpuNanos()).isNegative();
    assertThat(new ClientCost(0, 5, -1).plus(cost).serverCpuNanos()).isNegative();
  }

  private static CostMeter.Snapshot snapshot(
      long cpu, long excludedCpu, long[] ids, long[] allocated) {
    return snapshot(cpu, excludedCpu, 0, ids, allocated);
  }

  private static CostMeter.Snapshot snapshot(
      long cpu, long excludedCpu, long serverCpu, long[] ids, long[] allocated) {
    return new CostMeter.Snapshot(cpu, excludedCpu, serverCpu, ids, allocated, SELF, 0, 0);
  }
}
