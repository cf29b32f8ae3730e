package io.fencedlock.storage.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link StorageService} from the command line until SIGTERM (or Ctrl-C).
 *
 * <p>{@code --port N} (0 = ephemeral, the default) and {@code --db X}, where X is a JDBC URL or a
 * SQLite file path; the default is {@value MainArgs#DEFAULT_DATABASE} under the working directory,
 * so data survives restarts. Once serving it prints exactly one line {@code listening on
 * http://127.0.0.1:PORT} to standard output (logs go to standard error). On SIGTERM it stops
 * accepting, finishes running requests, closes the database and prints {@code stopped}. Exit code 2
 * for bad arguments, 1 if it cannot start.
 */
public final class StorageServiceMain {

  private StorageServiceMain() {}

  /** Entry point. */
  public static void main(String[] args) {
    MainArgs parsed;
    try {
      parsed = MainArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(MainArgs.USAGE);
      System.exit(2);
      return;
    }
    StorageService service;
    try {
      service = StorageService.start(config(parsed));
    } catch (RuntimeException e) {
      System.err.println("cannot start: " + e);
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> stop(service, stopped), "fenced-storage-shutdown"));
    System.out.println("listening on " + service.url());
    System.out.flush();
    awaitQuietly(stopped);
  }

  private static StorageConfig config(MainArgs parsed) {
    if (parsed.isFilePath()) {
      createParentDirectory(parsed.sqliteFile());
    }
    return StorageConfig.builder().port(parsed.port()).jdbcUrl(parsed.jdbcUrl()).build();
  }

  private static void createParentDirectory(Path file) {
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the directory of " + file, e);
    }
  }

  private static void stop(StorageService service, CountDownLatch stopped) {
    service.close();
    System.out.println("stopped");
    System.out.flush();
    stopped.countDown();
  }

  private static void awaitQuietly(CountDownLatch stopped) {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      // Nobody interrupts main; if it happens, the shutdown hook still closes the service.
      Thread.currentThread().interrupt();
    }
  }
}
