package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SoakTargetsTest {

  @Test
  void read_noSoakFile_returnsNoTargets(@TempDir Path dir) {
    assertThat(SoakTargets.read(dir.resolve("soak.json"))).isEmpty();
  }

  @Test
  void read_verdictOfASoak_returnsItsTargets(@TempDir Path dir) throws IOException {
    List<SoakSample> samples =
        List.of(
            new SoakSample(0.5, 20, 0, 24, 10, 0),
            new SoakSample(5, 12, 0, 24, 100, 0),
            new SoakSample(10, 12.5, 0, 24, 200, 0));
    List<Target> verdict = SoakVerdict.targets(samples, 10);
    Path file = dir.resolve("soak.json");
    Files.writeString(
        file, new com.google.gson.Gson().toJson(java.util.Map.of("targets", verdict)));

    List<Target> read = SoakTargets.read(file);

    assertThat(read).containsExactlyElementsOf(verdict);
    assertThat(read).allMatch(Target::met);
  }
}
