package io.fencedlock.cli;

import io.fencedlock.storage.service.StorageConfig;
import io.fencedlock.storage.service.StorageService;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.TempDirs;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the demo and {@code serve} run on: five local redis-server processes (the testkit's bundled
 * binary, {@code appendfsync always}) and the fenced storage service on SQLite in a fresh temp dir.
 *
 * <p>Thread-safe; {@link #close()} is idempotent and stops everything this object started, so it
 * can run from a shutdown hook while another thread still uses the environment.
 */
public final class DemoEnvironment implements AutoCloseable {
  /** How many Redis nodes it starts. */
  public static final int NODES = 5;

  private final RedisNodes nodes;
  private final StorageService service;
  private final Path dataDir;
  private final AtomicBoolean closed = new AtomicBoolean();

  private DemoEnvironment(RedisNodes nodes, StorageService service, Path dataDir) {
    this.nodes = nodes;
    this.service = service;
    this.dataDir = dataDir;
  }

  /**
   * Starts the nodes, then the service on {@code port} (0 = ephemeral). Nothing is left running if
   * a step fails.
   *
   * @throws io.fencedlock.testkit.RedisStartupException if a node does not come up
   * @throws io.fencedlock.storage.store.StoreException if the database cannot be opened
   * @throws UncheckedIOException if the temp dir cannot be made or the port cannot be bound
   */
  public static DemoEnvironment start(int port) {
    Path dataDir = TempDirs.create("fencedlock-demo-");
    RedisNodes nodes = null;
    try {
      // appendfsync always, as production nodes need for the fence counters to survive a crash
      // (and so the client's configuration audit has nothing to warn about).
      nodes = RedisNodes.start(NODES, Persistence.AOF_ALWAYS);
      String jdbcUrl = "jdbc:sqlite:" + dataDir.resolve("storage.db");
      StorageService service =
          StorageService.start(StorageConfig.builder().port(port).jdbcUrl(jdbcUrl).build());
      return new DemoEnvironment(nodes, service, dataDir);
    } catch (RuntimeException e) {
      if (nodes != null) {
        closeInto(nodes::close, e);
      }
      closeInto(() -> TempDirs.deleteRecursively(dataDir), e);
      throw e;
    }
  }

  /** The Redis nodes' URIs, {@code redis://127.0.0.1:PORT}. */
  public List<String> nodeUris() {
    return nodes.uris();
  }

  /** The storage service's base URL, {@code http://127.0.0.1:PORT}. */
  public URI storageUrl() {
    return service.url();
  }

  /** The SQLite database file. */
  public Path databaseFile() {
    return dataDir.resolve("storage.db");
  }

  /**
   * Stops the service, then the nodes, then deletes the temp dir; every step is attempted.
   *
   * @throws IllegalStateException if a step failed; each failure is attached as suppressed
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    IllegalStateException failure =
        new IllegalStateException("stopping the demo environment failed");
    closeInto(service::close, failure);
    closeInto(nodes::close, failure);
    closeInto(() -> TempDirs.deleteRecursively(dataDir), failure);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  private static void closeInto(Runnable step, Throwable failures) {
    try {
      step.run();
    } catch (RuntimeException e) {
      failures.addSuppressed(e);
    }
  }
}
