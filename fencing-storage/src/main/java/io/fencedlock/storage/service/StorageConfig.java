package io.fencedlock.storage.service;

import io.fencedlock.storage.store.JdbcFencedStore;
import java.util.Objects;

/**
 * Settings of a {@link StorageService}. Immutable and thread-safe; made by {@link #builder()}.
 *
 * <p>The service always binds to the loopback interface: it is a test fixture, not a product.
 */
public final class StorageConfig {

  /** Port 0: let the system pick a free one. */
  public static final int DEFAULT_PORT = 0;

  /** Request handler threads. Each holds at most one 1 MiB body, bounding memory use. */
  public static final int DEFAULT_WORKER_THREADS = 16;

  /** Requests waiting for a worker before the accept loop itself is made to wait. */
  public static final int DEFAULT_QUEUE_CAPACITY = 256;

  private final int port;
  private final String jdbcUrl;
  private final int workerThreads;
  private final int queueCapacity;

  private StorageConfig(Builder builder) {
    this.port = builder.port;
    this.jdbcUrl = Objects.requireNonNull(builder.jdbcUrl, "jdbcUrl must be set");
    this.workerThreads = builder.workerThreads;
    this.queueCapacity = builder.queueCapacity;
  }

  /** Returns a builder with the defaults; {@link Builder#jdbcUrl} must be set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The TCP port, 0 for an ephemeral one. */
  public int port() {
    return port;
  }

  /** {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://...}. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Number of request handler threads. */
  public int workerThreads() {
    return workerThreads;
  }

  /** Capacity of the queue in front of the handler threads. */
  public int queueCapacity() {
    return queueCapacity;
  }

  /** Builds a {@link StorageConfig}. Not thread-safe. */
  public static final class Builder {
    private int port = DEFAULT_PORT;
    private String jdbcUrl;
    private int workerThreads = DEFAULT_WORKER_THREADS;
    private int queueCapacity = DEFAULT_QUEUE_CAPACITY;

    private Builder() {}

    /**
     * Sets the port.
     *
     * @throws IllegalArgumentException unless 0 to 65535
     */
    public Builder port(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be 0-65535 but was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets the database. For SQLite the file's directory must exist.
     *
     * @throws IllegalArgumentException unless a {@code jdbc:sqlite:} or {@code
     *     jdbc:postgresql:} URL
     */
    public Builder jdbcUrl(String jdbcUrl) {
      JdbcFencedStore.requireSupportedUrl(jdbcUrl);
      this.jdbcUrl = jdbcUrl;
      return this;
    }

    /**
     * Sets the number of handler threads.
     *
     * @throws IllegalArgumentException unless 1 to 1024
     */
    public Builder workerThreads(int workerThreads) {
      if (workerThreads < 1 || workerThreads > 1024) {
        throw new IllegalArgumentException("workerThreads must be 1-1024 but was " + workerThreads);
      }
      this.workerThreads = workerThreads;
      return this;
    }

    /**
     * Sets the queue capacity.
     *
     * @throws IllegalArgumentException unless at least 1
     */
    public Builder queueCapacity(int queueCapacity) {
      if (queueCapacity < 1) {
        throw new IllegalArgumentException("queueCapacity must be >= 1 but was " + queueCapacity);
      }
      this.queueCapacity = queueCapacity;
      return this;
    }

    /**
     * Builds the config.
     *
     * @throws NullPointerException if the JDBC URL was not set
     */
    public StorageConfig build() {
      return new StorageConfig(this);
    }
  }
}
