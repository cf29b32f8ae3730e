package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProvenanceTest {

  @Test
  void line_inACleanCheckout_namesTheCommandAndHead(@TempDir Path repo) throws Exception {
    String head = commitOneFile(repo);

    assertThat(Provenance.line(List.of("--out", "docs/performance/run-35"), repo))
        .isEqualTo(
            "Made by `./fencedlock bench --out docs/performance/run-35` at commit `"
                + head
                + "`.\n\n");
  }

  @Test
  void commit_withAChangedTrackedFile_saysSo(@TempDir Path repo) throws Exception {
    String head = commitOneFile(repo);
    Files.writeString(repo.resolve("a.txt"), "changed");

    assertThat(Provenance.commit(repo)).isEqualTo("`" + head + "` (uncommitted changes)");
  }

  @Test
  void commit_outsideAGitCheckout_saysUnknown(@TempDir Path dir) {
    assertThat(Provenance.commit(dir)).startsWith("unknown (no git checkout at ");
  }

  /** A new repository in {@code dir} with one commit; returns its short hash. */
  private static String commitOneFile(Path dir) throws Exception {
    git(dir, "init", "-q");
    Files.writeString(dir.resolve("a.txt"), "a");
    git(dir, "add", "a.txt");
    git(dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a");
    return git(dir, "rev-parse", "--short", "HEAD");
  }

  private static String git(Path dir, String... args) throws IOException, InterruptedException {
    Process git =
        new ProcessBuilder(Stream.concat(Stream.of("git"), Stream.of(args)).toList())
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(git.getInputStream().readAllBytes()).trim();
    assertThat(git.waitFor()).as(out).isZero();
    return out;
  }
}
