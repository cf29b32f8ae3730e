package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class BinaryResolverTest {
  @TempDir Path temp;

  @Test
  void resolve_redisServerEnvExecutable_usesItOverPath() throws IOException {
    Path explicit = executable(temp.resolve("explicit/my-redis"));
    Path pathDir = executable(temp.resolve("bin/redis-server")).getParent();

    BinaryResolver.Resolution resolution =
        resolver(Map.of("REDIS_SERVER", explicit.toString(), "PATH", pathDir.toString())).resolve();

    assertThat(resolution.path()).isEqualTo(explicit);
    assertThat(resolution.source()).isEqualTo("REDIS_SERVER");
  }

  @Test
  void resolve_redisServerEnvNotExecutable_throwsNamingTheVariable() throws IOException {
    Path plain = Files.writeString(temp.resolve("redis-server"), "not a program");

    assertThatThrownBy(() -> resolver(Map.of("REDIS_SERVER", plain.toString())).resolve())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("REDIS_SERVER=" + plain)
        .hasMessageContaining("is not an executable file");
  }

  @Test
  void resolve_redisServerEnvMissingFile_throwsNamingTheVariable() {
    Path missing = temp.resolve("nope/redis-server");

    assertThatThrownBy(() -> resolver(Map.of("REDIS_SERVER", missing.toString())).resolve())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("REDIS_SERVER=" + missing);
  }

  @Test
  void resolve_redisServerEnvIsDirectory_throws() {
    assertThatThrownBy(() -> resolver(Map.of("REDIS_SERVER", temp.toString())).resolve())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is not an executable file");
  }

  @Test
  void resolve_onPathOnly_usesFirstExecutablePathEntry() throws IOException {
    Path nonExecutableDir = Files.createDirectories(temp.resolve("a"));
    Files.writeString(nonExecutableDir.resolve("redis-server"), "not executable");
    Path second = executable(temp.resolve("b/redis-server"));
    Path third = executable(temp.resolve("c/redis-server"));
    String path =
        String.join(
            ":",
            nonExecutableDir.toString(),
            second.getParent().toString(),
            third.getParent().toString());

    BinaryResolver.Resolution resolution = resolver(Map.of("PATH", path)).resolve();

    assertThat(resolution.path()).isEqualTo(second);
    assertThat(resolution.source()).isEqualTo("PATH");
  }

  @Test
  void resolve_nothingFoundOnOtherPlatform_throwsClearError() {
    BinaryResolver resolver =
        new BinaryResolver(Map.of("PATH", ""), "Mac OS X", "aarch64", temp.resolve("cache"));

    assertThatThrownBy(resolver::resolve)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("No redis-server found")
        .hasMessageContaining("Mac OS X/aarch64")
        .hasMessageContaining("REDIS_SERVER");
  }

  @Test
  void resolve_nothingFoundOnLinuxX64_extractsBundledBinaryOnce() throws IOException {
    Path cache = temp.resolve("cache");

    Path first = resolver(Map.of(), cache).resolve().path();
    Object firstFileKey = Files.readAttributes(first, BasicFileAttributes.class).fileKey();
    Path second = resolver(Map.of(), cache).resolve().path();

    assertThat(first).startsWith(cache).endsWith(Path.of("redis-server")).isExecutable();
    assertThat(second).isEqualTo(first);
    // Same inode: the second resolve reused the cached file instead of extracting again.
    assertThat(Files.readAttributes(second, BasicFileAttributes.class).fileKey())
        .isEqualTo(firstFileKey);
  }

  @Test
  void resolve_concurrentExtractions_allSeeOneCompleteBinary()
      throws InterruptedException, IOException {
    Path cache = temp.resolve("cache");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<Path>> tasks =
          IntStream.range(0, 4)
              .<Callable<Path>>mapToObj(i -> () -> resolver(Map.of(), cache).resolve().path())
              .toList();
      List<Path> paths = pool.invokeAll(tasks).stream().map(BinaryResolverTest::get).toList();

      assertThat(paths).hasSize(4).containsOnly(paths.get(0));
      assertThat(RedisBinary.probe(paths.get(0)).version()).matches("\\d+\\.\\d+\\.\\d+");
      try (Stream<Path> files = Files.list(paths.get(0).getParent())) {
        assertThat(files).containsExactly(paths.get(0)); // no temp files left behind
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private BinaryResolver resolver(Map<String, String> env) {
    return resolver(env, temp.resolve("cache"));
  }

  private static BinaryResolver resolver(Map<String, String> env, Path cache) {
    return new BinaryResolver(env, "Linux", "amd64", cache);
  }

  private static Path executable(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  private static Path get(Future<Path> future) {
    try {
      return future.get();
    } catch (ExecutionException | InterruptedException e) {
      throw new AssertionError("extraction failed", e);
    }
  }
}
