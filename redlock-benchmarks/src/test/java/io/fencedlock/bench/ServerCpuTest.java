package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ServerCpuTest {
  /** A real redis-server line, with utime 1234 and stime 567 (fields 14 and 15). */
  private static final String REDIS =
      "4242 (redis-server *:6379) S 1 4242 4242 0 -1 4194560 1503 0 0 0 1234 567 0 0 20 0 5 0"
          + " 98765 123456789 2345 18446744073709551615 1 1 0 0 0 0 0 4097 17642 0 0 0 17 1 0 0 0 0"
          + " 0 0 0 0 0 0 0 0 0";

  @Test
  void ticks_nameWithSpacesAndParentheses_countsFieldsAfterTheLastParenthesis() {
    // Split on spaces from the start, "(redis-server" and "*:6379)" would shift every field by
    // one; a name with ") S 9 9" in it would shift them further.
    String tricky = REDIS.replace("(redis-server *:6379)", "(a) b (c) 7 8 9)");

    assertThat(ServerCpu.ticks(REDIS)).isEqualTo(1234 + 567);
    assertThat(ServerCpu.ticks(tricky)).isEqualTo(1234 + 567);
  }

  @Test
  void ticks_malformedLine_isNegative() {
    assertThat(ServerCpu.ticks("4242 redis-server S 1 2 3")).isNegative();
    assertThat(ServerCpu.ticks("4242 (redis-server) S 1 2 3")).isNegative();
    assertThat(ServerCpu.ticks(REDIS.replace(" 1234 ", " x "))).isNegative();
  }

  @Test
  void nanos_sumsEveryServer_inTicksOfTheGivenLength(@TempDir Path proc) throws IOException {
    stat(proc, 11, REDIS); // 1801 ticks
    stat(proc, 12, REDIS.replace(" 1234 567 ", " 100 99 ")); // 199 ticks

    ServerCpu cpu = new ServerCpu(new long[] {11, 12}, proc, 10_000_000);

    assertThat(cpu.nanos()).isEqualTo(2_000 * 10_000_000L);
  }

  @Test
  void nanos_aServerThatCannotBeRead_makesTheWholeReadingUnknown(@TempDir Path proc)
      throws IOException {
    stat(proc, 11, REDIS);

    assertThat(new ServerCpu(new long[] {11, 13}, proc, 10_000_000).nanos()).isNegative();
    assertThat(ServerCpu.NONE.nanos()).isNegative();
  }

  @Test
  void nanosPerTick_isAWholeFractionOfASecond() {
    long tick = ServerCpu.nanosPerTick();

    assertThat(tick).isPositive();
    assertThat(1_000_000_000L % tick).isZero();
  }

  @Test
  void nanos_ownProcess_readsTheRealProcFile() {
    // This JVM stands in for a server: on Linux its utime + stime are readable and have grown.
    long self = ProcessHandle.current().pid();
    ServerCpu cpu = new ServerCpu(new long[] {self}, Path.of("/proc"), ServerCpu.nanosPerTick());

    if (Files.isReadable(Path.of("/proc/self/stat"))) {
      assertThat(cpu.nanos()).isPositive();
    } else {
      assertThat(cpu.nanos()).isNegative();
    }
  }

  private static void stat(Path proc, long pid, String line) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("stat"), line + "\n");
  }
}
