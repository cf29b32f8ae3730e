package io.fencedlock.storage.service;

import io.fencedlock.storage.store.JdbcFencedStore;
import io.fencedlock.storage.store.StoreTimeouts;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a {@link StorageService}: where it listens and stores, and the limits that keep slow
 * or hostile clients and overload from starving it. Immutable and thread-safe; made by {@link
 * #builder()}. Every limit has a default meant for production use; the storage README explains
 * each.
 *
 * <p>The service always binds to the loopback interface.
 */
public final class StorageConfig {

  /** Port 0: let the system pick a free one. */
  public static final int DEFAULT_PORT = 0;

  /** Threads that run store calls; each holds at most one 1 MiB value, bounding memory use. */
  public static final int DEFAULT_WORKER_THREADS = 16;

  /** Requests waiting for a store thread; one more is refused with 503 and Retry-After. */
  public static final int DEFAULT_QUEUE_CAPACITY = 256;

  /**
   * Longest wait for a store thread; a request that waited longer is skipped (503, nothing changed)
   * instead of run, unless the idle timeout is shorter, which then applies. Below the client's
   * default 10 s request timeout, so that its client is still there to read the 503.
   */
  public static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofSeconds(3);

  /** Time from a request's first byte to the end of its head (request line and headers). */
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

  /** Time from the end of a request's head to the end of its body. */
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(30);

  /** Time a connection may stay silent: between keep-alive requests, or stalled in any phase. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  /** Open connections; further clients wait in the accept backlog until one closes. */
  public static final int DEFAULT_MAX_CONNECTIONS = 4096;

  /** The {@code Retry-After} of a 503 for overload: one second, in whole seconds on the wire. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  /** How long {@link StorageService#close()} lets running requests finish. */
  public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(2);

  private final int port;
  private final String jdbcUrl;
  private final int workerThreads;
  private final int queueCapacity;
  private final Duration queueTimeout;
  private final StoreTimeouts storeTimeouts;
  private final Duration headerTimeout;
  private final Duration bodyTimeout;
  private final Duration idleTimeout;
  private final int maxConnections;
  private final Duration retryAfter;
  private final Duration stopGrace;
  private final MeterRegistry meterRegistry;

  private StorageConfig(Builder builder) {
    this.port = builder.port;
    this.jdbcUrl = Objects.requireNonNull(builder.jdbcUrl, "jdbcUrl must be set");
    this.workerThreads = builder.workerThreads;
    this.queueCapacity = builder.queueCapacity;
    // Tied to the idle timeout by default: a request waiting for the store is as silent as an idle
    // connection, but Jetty's idle timeout does not fire while the handler holds it.
    this.queueTimeout =
        builder.queueTimeout != null
            ? builder.queueTimeout
            : min(DEFAULT_QUEUE_TIMEOUT, builder.idleTimeout);
    this.storeTimeouts = builder.storeTimeouts;
    this.headerTimeout = builder.headerTimeout;
    this.bodyTimeout = builder.bodyTimeout;
    this.idleTimeout = builder.idleTimeout;
    this.maxConnections = builder.maxConnections;
    this.retryAfter = builder.retryAfter;
    this.stopGrace = builder.stopGrace;
    this.meterRegistry = builder.meterRegistry;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
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

  /** Number of threads running store calls at once. */
  public int workerThreads() {
    return workerThreads;
  }

  /** Requests that may wait for a store thread before more are refused. */
  public int queueCapacity() {
    return queueCapacity;
  }

  /**
   * How long a request may wait for a store thread before it is skipped: as set, else {@link
   * #DEFAULT_QUEUE_TIMEOUT} or the idle timeout, whichever is shorter.
   */
  public Duration queueTimeout() {
    return queueTimeout;
  }

  /** How long a store call may wait for a database connection, a lock and a statement. */
  public StoreTimeouts storeTimeouts() {
    return storeTimeouts;
  }

  /** Bound on receiving a request's head, from its first byte. */
  public Duration headerTimeout() {
    return headerTimeout;
  }

  /** Bound on receiving a request's body, from the end of its head. */
  public Duration bodyTimeout() {
    return bodyTimeout;
  }

  /** Bound on a connection's silence. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** Most connections open at once. */
  public int maxConnections() {
    return maxConnections;
  }

  /** What a 503 for overload tells the client to wait. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** How long closing waits for running requests. */
  public Duration stopGrace() {
    return stopGrace;
  }

  /** Where the service records its meters; empty: nothing is recorded. */
  public Optional<MeterRegistry> meterRegistry() {
    return Optional.ofNullable(meterRegistry);
  }

  /** Builds a {@link StorageConfig}. Not thread-safe. */
  public static final class Builder {
    private static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    private int port = DEFAULT_PORT;
    private String jdbcUrl;
    private int workerThreads = DEFAULT_WORKER_THREADS;
    private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
    private Duration queueTimeout; // null: the default, which depends on the idle timeout
    private StoreTimeouts storeTimeouts = StoreTimeouts.DEFAULTS;
    private Duration headerTimeout = DEFAULT_HEADER_TIMEOUT;
    private Duration bodyTimeout = DEFAULT_BODY_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private Duration retryAfter = DEFAULT_RETRY_AFTER;
    private Duration stopGrace = DEFAULT_STOP_GRACE;
    private MeterRegistry meterRegistry;

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
     * @throws IllegalArgumentException unless a {@code jdbc:sqlite:} or {@code jdbc:postgresql:}
     *     URL
     */
    public Builder jdbcUrl(String jdbcUrl) {
      JdbcFencedStore.requireSupportedUrl(jdbcUrl);
      this.jdbcUrl = jdbcUrl;
      return this;
    }

    /**
     * Sets the number of threads running store calls.
     *
     * @throws IllegalArgumentException unless 1 to 1024
     */
    public Builder workerThreads(int workerThreads) {
      this.workerThreads = inRange(workerThreads, 1, 1024, "workerThreads");
      return this;
    }

    /**
     * Sets how many requests may wait for a store thread.
     *
     * @throws IllegalArgumentException unless 1 to 65536
     */
    public Builder queueCapacity(int queueCapacity) {
      this.queueCapacity = inRange(queueCapacity, 1, 65_536, "queueCapacity");
      return this;
    }

    /**
     * Sets how long a request may wait for a store thread. One that waited longer when a thread
     * takes it up is not run but answered 503 with {@code Retry-After}: nothing was changed.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder queueTimeout(Duration queueTimeout) {
      this.queueTimeout = timeout(queueTimeout, "queueTimeout");
      return this;
    }

    /**
     * Sets how long a store call may wait for a database connection and, on PostgreSQL, for a lock
     * ({@code lock_timeout}) and a statement ({@code statement_timeout}). A call past one of them
     * is answered 503 with {@code Retry-After}: nothing was changed.
     *
     * @throws NullPointerException if {@code storeTimeouts} is null
     */
    public Builder storeTimeouts(StoreTimeouts storeTimeouts) {
      this.storeTimeouts = Objects.requireNonNull(storeTimeouts, "storeTimeouts");
      return this;
    }

    /**
     * Sets the bound on receiving a request's head.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder headerTimeout(Duration headerTimeout) {
      this.headerTimeout = timeout(headerTimeout, "headerTimeout");
      return this;
    }

    /**
     * Sets the bound on receiving a request's body.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder bodyTimeout(Duration bodyTimeout) {
      this.bodyTimeout = timeout(bodyTimeout, "bodyTimeout");
      return this;
    }

    /**
     * Sets the bound on a connection's silence.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = timeout(idleTimeout, "idleTimeout");
      return this;
    }

    /**
     * Sets the most connections open at once.
     *
     * @throws IllegalArgumentException unless 1 to 1,000,000
     */
    public Builder maxConnections(int maxConnections) {
      this.maxConnections = inRange(maxConnections, 1, 1_000_000, "maxConnections");
      return this;
    }

    /**
     * Sets the {@code Retry-After} of an overload 503, rounded up to whole seconds.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder retryAfter(Duration retryAfter) {
      this.retryAfter = timeout(retryAfter, "retryAfter");
      return this;
    }

    /**
     * Sets how long closing waits for running requests.
     *
     * @throws IllegalArgumentException unless positive and at most one hour
     */
    public Builder stopGrace(Duration stopGrace) {
      this.stopGrace = timeout(stopGrace, "stopGrace");
      return this;
    }

    /**
     * Records the service's meters in {@code registry} (see the storage README for names and tags).
     * Without one, nothing is recorded.
     *
     * @throws NullPointerException if {@code registry} is null
     */
    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
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

    private static int inRange(int value, int min, int max, String name) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            name + " must be " + min + "-" + max + " but was " + value);
      }
      return value;
    }

    private static Duration timeout(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero() || value.compareTo(MAX_TIMEOUT) > 0) {
        throw new IllegalArgumentException(
            name + " must be positive and at most " + MAX_TIMEOUT + " but was " + value);
      }
      return value;
    }
  }
}
