package io.fencedlock.storage.postgres;

import io.fencedlock.testkit.postgres.PostgresServer;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class the one {@link PostgresServer} of this test run: started on first use, closed
 * by JUnit when the run ends (the root store closes {@link AutoCloseable} values), and by the
 * server's shutdown hook if the JVM dies first. Register it as a static field with
 * {@code @RegisterExtension}.
 */
public final class PostgresExtension implements BeforeAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(PostgresExtension.class);

  private volatile PostgresServer server;

  @Override
  public void beforeAll(ExtensionContext context) {
    server =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                PostgresServer.class, type -> PostgresServer.start(), PostgresServer.class);
  }

  /** A fresh, empty database on the shared server. */
  public String newDatabaseUrl() {
    if (server == null) {
      throw new IllegalStateException("PostgresExtension must be a static @RegisterExtension");
    }
    return server.createDatabase();
  }
}
