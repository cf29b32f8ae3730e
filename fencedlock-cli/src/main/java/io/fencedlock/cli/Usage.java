package io.fencedlock.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A command's usage text, from {@code src/main/resources/fencedlock-usage/COMMAND.txt}: the one
 * place it is written. The main prints it for {@code --help}; the {@code ./fencedlock} launcher
 * prints the same file itself, without building anything.
 */
public final class Usage {
  private Usage() {}

  /**
   * The usage text of {@code command}, ending with a newline.
   *
   * @throws IllegalStateException if the file is not on the classpath (a packaging bug)
   */
  public static String of(String command) {
    String name = "/fencedlock-usage/" + command + ".txt";
    try (InputStream in = Usage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no " + name + " on the classpath");
      }
      return new String(in.readAllBytes(), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
