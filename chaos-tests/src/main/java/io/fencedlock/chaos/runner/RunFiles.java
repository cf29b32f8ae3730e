package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.JsonLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The files of a run, in {@code <root>/<experiment>/<timestamp>/}: {@code history.jsonl}, {@code
 * results.json} and {@code timeline.html}. Stateless; thread-safe.
 */
final class RunFiles {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");

  private RunFiles() {}

  /** Creates a fresh directory for a run of {@code experiment}. */
  static Path newRunDir(Path root, String experiment) {
    Path base = root.resolve(experiment);
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
    try {
      Files.createDirectories(base);
      Path dir = base.resolve(stamp);
      for (int i = 1; Files.exists(dir); i++) {
        dir = base.resolve(stamp + "-" + i);
      }
      return Files.createDirectory(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a run directory under " + base, e);
    }
  }

  static void write(RunReport report, History history) {
    JsonLines.write(history, report.dir().resolve("history.jsonl"));
    writeString(report.dir().resolve("results.json"), ResultsJson.render(report));
    writeString(report.dir().resolve("timeline.html"), TimelineHtml.render(report, history));
  }

  /** Only {@code results.json}: enough to replay the run. */
  static void writeResults(RunReport report) {
    writeString(report.dir().resolve("results.json"), ResultsJson.render(report));
  }

  static void writeString(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
