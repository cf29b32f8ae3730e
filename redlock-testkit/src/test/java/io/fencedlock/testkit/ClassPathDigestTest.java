package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ClassPathDigestTest {
  private static final List<String> ARGS = List.of("Main", "--port", "8474");

  @TempDir Path dir;

  @Test
  void of_sameEntriesRebuiltLater_sameDigest() throws IOException {
    Path first = jar("first.jar", Map.of("a/A.class", "one", "b/B.class", "two"), 1_000);
    Path second = jar("second.jar", Map.of("b/B.class", "two", "a/A.class", "one"), 9_000_000);

    assertThat(ClassPathDigest.of("jre:17", ARGS, List.of(first)))
        .isEqualTo(ClassPathDigest.of("jre:17", ARGS, List.of(second)))
        .hasSize(ClassPathDigest.HEX_DIGITS);
  }

  @Test
  void of_oneClassChanged_otherDigest() throws IOException {
    Path before = jar("before.jar", Map.of("a/A.class", "one"), 1_000);
    Path after = jar("after.jar", Map.of("a/A.class", "one!"), 1_000);

    assertThat(ClassPathDigest.of("jre:17", ARGS, List.of(before)))
        .isNotEqualTo(ClassPathDigest.of("jre:17", ARGS, List.of(after)));
  }

  @Test
  void of_otherBaseOrArguments_otherDigest() throws IOException {
    Path jar = jar("app.jar", Map.of("a/A.class", "one"), 1_000);
    String digest = ClassPathDigest.of("jre:17", ARGS, List.of(jar));

    assertThat(ClassPathDigest.of("jre:21", ARGS, List.of(jar))).isNotEqualTo(digest);
    assertThat(ClassPathDigest.of("jre:17", List.of("Main", "--port", "8475"), List.of(jar)))
        .isNotEqualTo(digest);
  }

  @Test
  void of_classDirectory_countsItsFilesByRelativePath() throws IOException {
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes.resolve("a"));
    Files.writeString(classes.resolve("a/A.class"), "one");
    String digest = ClassPathDigest.of("jre:17", ARGS, List.of(classes));

    Files.setLastModifiedTime(classes.resolve("a/A.class"), FileTime.fromMillis(5_000));
    assertThat(ClassPathDigest.of("jre:17", ARGS, List.of(classes))).isEqualTo(digest);
    Files.writeString(classes.resolve("a/A.class"), "two");
    assertThat(ClassPathDigest.of("jre:17", ARGS, List.of(classes))).isNotEqualTo(digest);
  }

  private Path jar(String name, Map<String, String> entries, long time) throws IOException {
    Path jar = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        ZipEntry zipEntry = new ZipEntry(entry.getKey());
        zipEntry.setTime(time);
        zip.putNextEntry(zipEntry);
        zip.write(entry.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return jar;
  }
}
