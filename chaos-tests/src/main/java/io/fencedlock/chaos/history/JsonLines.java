package io.fencedlock.chaos.history;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a history as JSON Lines, one op per line. Stateless and thread-safe. */
public final class JsonLines {
  private static final Gson GSON =
      new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  private JsonLines() {}

  /**
   * Writes {@code history} to {@code file}, replacing it.
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void write(History history, Path file) {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Op op : history.ops()) {
        out.write(GSON.toJson(op.toJsonMap()));
        out.newLine();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
