package io.fencedlock.redlock;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Records what the tests' logger (slf4j-simple, which writes to {@code System.err} as it is at each
 * write) prints while open, and still prints it. Tests run one at a time in this module.
 */
final class LogCapture implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream recorded = new ByteArrayOutputStream();

  LogCapture() {
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (recorded) {
              recorded.write(b);
            }
            original.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (recorded) {
              recorded.write(b, off, len);
            }
            original.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** The lines logged at {@code level} (e.g. "WARN") so far. */
  List<String> lines(String level) {
    String text;
    synchronized (recorded) {
      text = recorded.toString(StandardCharsets.UTF_8);
    }
    return text.lines().filter(line -> line.contains(" " + level + " ")).toList();
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
