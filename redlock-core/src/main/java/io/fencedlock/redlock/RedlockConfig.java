package io.fencedlock.redlock;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The immutable configuration of a {@link Redlock}: the independent Redis masters and the timing
 * parameters of the algorithm. Made with {@link #builder()}; immutable and thread-safe.
 *
 * <p>Every setter of the builder validates its argument at once ({@link IllegalArgumentException}
 * naming the parameter) and refuses to be called twice ({@link IllegalStateException}). The quorum
 * is derived: {@code nodes / 2 + 1}.
 */
public final class RedlockConfig {
  private static final Logger log = LoggerFactory.getLogger(RedlockConfig.class);

  /** Default fraction of the TTL reserved for clock drift between client and nodes. */
  public static final double DEFAULT_DRIFT_FACTOR = 0.01;

  /** Default time one node may take to answer one step before it counts as timed out. */
  public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(50);

  /** Default time {@link Redlock#create} waits for the first connections to the nodes. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /** Default pause between two attempts of {@link Redlock#acquire}. */
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofMillis(100);

  /** Default upper bound of the random jitter added to each retry delay. */
  public static final Duration DEFAULT_RETRY_JITTER = Duration.ofMillis(100);

  /** Default number of times one lease may be extended. */
  public static final int DEFAULT_MAX_EXTENSIONS = 10;

  /** Default largest TTL a lease may ask for; also how long a node that lost its memory waits. */
  public static final Duration DEFAULT_MAX_LEASE_TTL = Duration.ofMinutes(1);

  /** The longest {@link Builder#nodeTimeout} and {@link Builder#connectTimeout} accepted. */
  public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

  /** The longest {@link Builder#retryDelay} and {@link Builder#retryJitter} accepted. */
  public static final Duration MAX_RETRY_DELAY = Duration.ofHours(1);

  /**
   * The shortest {@link Builder#retryDelay} accepted: with none, an acquire whose attempts fail at
   * once (every node down) would retry in a busy loop.
   */
  public static final Duration MIN_RETRY_DELAY = Duration.ofMillis(1);

  /**
   * The longest {@link Builder#maxLeaseTtl} accepted. Longer work keeps a shorter lease alive by
   * extending it; a node that lost its memory is kept out for this long.
   */
  public static final Duration MAX_MAX_LEASE_TTL = Duration.ofDays(7);

  /** Default number of times in a row a lock may pass to a waiter of the same Redlock. */
  public static final int DEFAULT_MAX_LOCAL_HANDOFFS = 8;

  private final List<String> nodes;
  private final double driftFactor;
  private final Duration nodeTimeout;
  private final Duration connectTimeout;
  private final Duration retryDelay;
  private final Duration retryJitter;
  private final int maxExtensions;
  private final Duration maxLeaseTtl;
  private final String keyPrefix;
  private final boolean fencing;
  private final boolean tokenPrediction;
  private final int maxLocalHandoffs;
  private final Ticker ticker;
  private final RedlockMetrics metrics;

  private RedlockConfig(Builder b) {
    this.nodes = List.copyOf(b.nodes);
    this.driftFactor = b.driftFactor;
    this.nodeTimeout = b.nodeTimeout;
    this.connectTimeout = b.connectTimeout;
    this.retryDelay = b.retryDelay;
    this.retryJitter = b.retryJitter;
    this.maxExtensions = b.maxExtensions;
    this.maxLeaseTtl = b.maxLeaseTtl;
    this.keyPrefix = b.keyPrefix;
    this.fencing = b.fencing;
    this.tokenPrediction = b.tokenPrediction;
    this.maxLocalHandoffs = b.maxLocalHandoffs;
    this.ticker = b.ticker;
    this.metrics = b.metrics;
  }

  /** Returns a new builder with every option at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** The node URIs, in the order given (Lettuce syntax: {@code redis://[:password@]host:port}). */
  public List<String> nodes() {
    return nodes;
  }

  /** How many nodes must agree: a strict majority of {@link #nodes()}. */
  public int quorum() {
    return nodes.size() / 2 + 1;
  }

  public double driftFactor() {
    return driftFactor;
  }

  public Duration nodeTimeout() {
    return nodeTimeout;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration retryDelay() {
    return retryDelay;
  }

  public Duration retryJitter() {
    return retryJitter;
  }

  public int maxExtensions() {
    return maxExtensions;
  }

  public Duration maxLeaseTtl() {
    return maxLeaseTtl;
  }

  public String keyPrefix() {
    return keyPrefix;
  }

  /** Whether leases carry fencing tokens or not (plain SET NX PX, wire-compatible). */
  public boolean fencing() {
    return fencing;
  }

  /** Whether a fenced acquire proposes its token in phase 1 when it can predict it. */
  public boolean tokenPrediction() {
    return tokenPrediction;
  }

  /**
   * How many times in a row a lock may pass straight to a waiter of the same Redlock; 0 for never.
   */
  public int maxLocalHandoffs() {
    return maxLocalHandoffs;
  }

  public Ticker ticker() {
    return ticker;
  }

  /** Where the client reports its metrics; {@link RedlockMetrics#NONE} by default. */
  public RedlockMetrics metrics() {
    return metrics;
  }

  /** Builds a {@link RedlockConfig}. Not thread-safe; use from one thread. */
  public static final class Builder {
    private List<String> nodes = List.of();
    private double driftFactor = DEFAULT_DRIFT_FACTOR;
    private Duration nodeTimeout = DEFAULT_NODE_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration retryDelay = DEFAULT_RETRY_DELAY;
    private Duration retryJitter = DEFAULT_RETRY_JITTER;
    private int maxExtensions = DEFAULT_MAX_EXTENSIONS;
    private Duration maxLeaseTtl = DEFAULT_MAX_LEASE_TTL;
    private String keyPrefix = "";
    private boolean fencing = true;
    private boolean tokenPrediction = true;
    private int maxLocalHandoffs = DEFAULT_MAX_LOCAL_HANDOFFS;
    private Ticker ticker = Ticker.system();
    private RedlockMetrics metrics = RedlockMetrics.NONE;
    private final Set<String> alreadySet = new HashSet<>();

    private Builder() {}

    /**
     * The independent Redis masters, at least one, usually 2f+1 of them. Each is a URI in Lettuce's
     * syntax, so passwords ({@code redis://:secret@host:6379}), TLS ({@code rediss://}) and Unix
     * sockets ({@code redis-socket:///path}) work: {@link Redlock#create(RedlockConfig)} reaches
     * plain TCP nodes through its own RESP driver, and uses Lettuce when any node needs TLS, a
     * socket or Sentinel. Host names are resolved here, once, to refuse two URIs that reach the
     * same server: one server counted twice could make a quorum on its own. Two URIs are the same
     * server when they share a port and an address (every loopback address counting as one,
     * whatever the name: {@code localhost}, {@code 127.0.0.1}, {@code [::1]}), or name the same
     * socket; the database number does not make a different server.
     *
     * <p>2f+1 nodes keep locks and tokens with f of them down. Fewer than three nodes, or an even
     * count, is accepted (tests and development set-ups use one), but {@link #build()} logs a
     * warning with the fault tolerance it gives: one or two nodes tolerate no failure, and 2f+2
     * nodes tolerate f, as 2f+1 do, with a larger quorum.
     *
     * @throws IllegalArgumentException if the list is empty, has a null, an unparsable URI, a URI
     *     with port 0 (which Lettuce would read as no port, and so 6379), a Sentinel URI (Redlock
     *     needs independent masters, not a failover group), or two URIs that may reach the same
     *     server
     */
    public Builder nodes(List<String> uris) {
      once("nodes");
      Objects.requireNonNull(uris, "nodes");
      require(!uris.isEmpty(), "nodes must name at least one Redis node");
      List<NodeAddress> seen = new ArrayList<>();
      List<String> copy = new ArrayList<>();
      for (int i = 0; i < uris.size(); i++) {
        String uri = uris.get(i);
        require(uri != null && !uri.isBlank(), "nodes[" + i + "] is null or blank");
        RedisURI parsed = parse(i, uri);
        require(
            parsed.getSentinels().isEmpty(),
            "nodes["
                + i
                + "] is a Sentinel URI: Redlock needs independent"
                + " masters, and a failover can lose acknowledged locks and fence counters");
        NodeAddress address = NodeAddress.of(parsed);
        for (int j = 0; j < seen.size(); j++) {
          require(
              !seen.get(j).sameServerAs(address),
              "nodes["
                  + i
                  + "] duplicates nodes["
                  + j
                  + "]: "
                  + uri
                  + " and "
                  + uris.get(j)
                  + " may reach the same server");
        }
        seen.add(address);
        copy.add(uri);
      }
      this.nodes = copy;
      return this;
    }

    /** Same as {@link #nodes(List)}. */
    public Builder nodes(String... uris) {
      return nodes(List.of(uris));
    }

    /**
     * The fraction of the TTL subtracted from every lease's validity to allow for clock drift; 2 ms
     * are always added on top. Default {@value #DEFAULT_DRIFT_FACTOR}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= factor < 0.5}
     */
    public Builder driftFactor(double factor) {
      once("driftFactor");
      require(factor >= 0 && factor < 0.5, "driftFactor must be in [0, 0.5): " + factor);
      this.driftFactor = factor;
      return this;
    }

    /**
     * How long one node may take to answer one step. Keep it far below the TTL: a paused or cut-off
     * node costs each acquire at most this long. Default 50 ms.
     *
     * @throws IllegalArgumentException if not positive or above {@link RedlockConfig#MAX_TIMEOUT}
     */
    public Builder nodeTimeout(Duration timeout) {
      once("nodeTimeout");
      this.nodeTimeout = atMost("nodeTimeout", positive("nodeTimeout", timeout), MAX_TIMEOUT);
      return this;
    }

    /**
     * How long {@link Redlock#create} waits for the first connections (nodes that are down do not
     * prevent creation), and the TCP connect timeout of every reconnect. Default 2 s.
     *
     * @throws IllegalArgumentException if not positive or above {@link RedlockConfig#MAX_TIMEOUT}
     */
    public Builder connectTimeout(Duration timeout) {
      once("connectTimeout");
      this.connectTimeout =
          atMost("connectTimeout", positive("connectTimeout", timeout), MAX_TIMEOUT);
      return this;
    }

    /**
     * The pause between two attempts of {@link Redlock#acquire}, unless a release notification, a
     * local handoff or a split vote (see {@link Redlock#acquire}) starts the next one sooner; it
     * also caps the backoff after split votes. Default 100 ms.
     *
     * @throws IllegalArgumentException if below {@link RedlockConfig#MIN_RETRY_DELAY} or above
     *     {@link RedlockConfig#MAX_RETRY_DELAY}
     */
    public Builder retryDelay(Duration delay) {
      once("retryDelay");
      Objects.requireNonNull(delay, "retryDelay");
      require(
          delay.compareTo(MIN_RETRY_DELAY) >= 0,
          "retryDelay must be at least " + MIN_RETRY_DELAY + ": " + delay);
      this.retryDelay = atMost("retryDelay", delay, MAX_RETRY_DELAY);
      return this;
    }

    /**
     * The upper bound of a uniformly random extra pause added to each retry, so that contending
     * clients do not retry in lockstep. Default 100 ms.
     *
     * @throws IllegalArgumentException if negative or above {@link RedlockConfig#MAX_RETRY_DELAY}
     */
    public Builder retryJitter(Duration jitter) {
      once("retryJitter");
      this.retryJitter = atMost("retryJitter", nonNegative("retryJitter", jitter), MAX_RETRY_DELAY);
      return this;
    }

    /**
     * How many extend calls one lease may make, succeeded or not (each reserves its slot before it
     * is sent). Default {@value #DEFAULT_MAX_EXTENSIONS}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxExtensions(int max) {
      once("maxExtensions");
      require(max >= 0, "maxExtensions must not be negative: " + max);
      this.maxExtensions = max;
      return this;
    }

    /**
     * The largest TTL a lease may request or be extended to. A node that restarted without its data
     * is kept out of quorums for this long (plus drift) after this client first saw its current
     * empty state, so that every lease it had forgotten has run out: that holds only if no client
     * of the deployment uses TTLs longer than the re-admitting client's value, so give every client
     * the same one (docs/analysis.md, section 5). Default 1 minute.
     *
     * @throws IllegalArgumentException if not positive or above {@link
     *     RedlockConfig#MAX_MAX_LEASE_TTL}
     */
    public Builder maxLeaseTtl(Duration max) {
      once("maxLeaseTtl");
      this.maxLeaseTtl = atMost("maxLeaseTtl", positive("maxLeaseTtl", max), MAX_MAX_LEASE_TTL);
      return this;
    }

    /**
     * A prefix put before every resource name to form the lock key. Default empty, so the key on
     * the wire is exactly the resource name, as other Redlock clients use it.
     *
     * @throws IllegalArgumentException if it starts with {@code redlock:node-} (the nodes' own
     *     keys) or has an unpaired UTF-16 surrogate
     */
    public Builder keyPrefix(String prefix) {
      once("keyPrefix");
      Objects.requireNonNull(prefix, "keyPrefix");
      KeySpace.checkPrefix("keyPrefix", prefix);
      this.keyPrefix = prefix;
      return this;
    }

    /**
     * Whether leases carry fencing tokens. On (the default), every lease has a token that strictly
     * increases per resource; an acquire takes one round trip when this client can predict the
     * token (see {@link #tokenPrediction}) and two otherwise. Off, an acquire is one round of plain
     * {@code SET key value NX PX ttl}, wire-compatible with other Redlock clients, and leases have
     * no token.
     */
    public Builder fencing(boolean enabled) {
      once("fencing");
      this.fencing = enabled;
      return this;
    }

    /**
     * Whether a fenced acquire proposes its token in phase 1: one above the highest counter this
     * client has seen for the resource (in its own leases, and in what nodes answered to its
     * earlier attempts). Nodes write a proposal only where it is above their counter and the lock
     * is taken in the same step; if a quorum did, the acquire is done in one round trip, else it
     * runs phase 2 as usual. On by default; off, every fenced acquire takes two round trips (for
     * comparisons and experiments). Tokens are unique and ordered either way.
     */
    public Builder tokenPrediction(boolean enabled) {
      once("tokenPrediction");
      this.tokenPrediction = enabled;
      return this;
    }

    /**
     * How many times in a row a lock may pass straight from a released lease to an acquire of the
     * same Redlock that is waiting for it. In such a <em>local handoff</em> the waiter's next
     * attempt carries the release: each node deletes the old lease's key (compare-and- delete, as a
     * release does) and locks for the waiter in the same script, so the waiter is granted one round
     * trip after the release starts, instead of after hearing of the release and then trying. On
     * every node that is a release immediately followed by an acquire, so safety is the same;
     * unfenced clients run a small script here instead of {@code SET NX PX}, touching only the lock
     * key. What differs is that the release is not announced, so acquires waiting in other
     * processes keep waiting for their retry delay while the lock passes between this client's
     * threads. This cap bounds that: after this many local handoffs in a row the release is
     * announced and every waiter competes. 0 turns local handoffs off (every release is announced).
     * Default {@value #DEFAULT_MAX_LOCAL_HANDOFFS}.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxLocalHandoffs(int max) {
      once("maxLocalHandoffs");
      require(max >= 0, "maxLocalHandoffs must not be negative: " + max);
      this.maxLocalHandoffs = max;
      return this;
    }

    /** The monotonic clock for lease arithmetic. Default {@link Ticker#system()}. */
    public Builder ticker(Ticker ticker) {
      once("ticker");
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Where the client reports latencies and counts, for example {@code
     * MicrometerMetrics.of(registry)} (package {@code io.fencedlock.redlock.micrometer}, which
     * needs Micrometer on the classpath). Default: nothing is recorded.
     */
    public Builder metrics(RedlockMetrics sink) {
      once("metrics");
      this.metrics = Objects.requireNonNull(sink, "metrics");
      return this;
    }

    /**
     * Returns the configuration; logs a warning if the node count is below three or even (see
     * {@link #nodes(List)}).
     *
     * @throws IllegalStateException if no nodes were given
     */
    public RedlockConfig build() {
      if (nodes.isEmpty()) {
        throw new IllegalStateException("nodes must be set");
      }
      RedlockConfig config = new RedlockConfig(this);
      warnIfWeak(config);
      return config;
    }

    /** A node count that buys no fault tolerance over a smaller one is never silent. */
    private static void warnIfWeak(RedlockConfig config) {
      int count = config.nodes().size();
      if (count >= 3 && count % 2 == 1) {
        return;
      }
      int tolerated = (count - 1) / 2;
      String failures =
          tolerated == 0 ? "no failure" : tolerated + (tolerated == 1 ? " failure" : " failures");
      log.warn(
          "{}; quorum {}. Use an odd number of at least 3 independent masters: 2f+1 tolerate f"
              + " failures.",
          count == 1
              ? "1 Redis node tolerates no failure"
              : count
                  + " Redis nodes tolerate "
                  + failures
                  + ", as "
                  + (count - 1)
                  + (count == 2 ? " does" : " do"),
          config.quorum());
    }

    private void once(String option) {
      if (!alreadySet.add(option)) {
        throw new IllegalStateException(option + " was already set");
      }
    }

    private static RedisURI parse(int index, String uri) {
      RedisURI parsed;
      try {
        parsed = RedisURI.create(uri);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "nodes[" + index + "] is not a valid Redis URI: " + e.getMessage(), e);
      }
      // Lettuce reads port 0 as no port at all and connects to 6379, perhaps another server. It
      // parses with java.net.URI, which therefore accepts the text too.
      require(
          URI.create(uri).getPort() != 0,
          "nodes[" + index + "] names port 0, where no server listens: give the node's port");
      return parsed;
    }

    private static Duration positive(String name, Duration d) {
      Objects.requireNonNull(d, name);
      require(!d.isNegative() && !d.isZero(), name + " must be positive: " + d);
      return d;
    }

    private static Duration atMost(String name, Duration d, Duration limit) {
      require(d.compareTo(limit) <= 0, name + " must be at most " + limit + ": " + d);
      return d;
    }

    private static Duration nonNegative(String name, Duration d) {
      Objects.requireNonNull(d, name);
      require(!d.isNegative(), name + " must not be negative: " + d);
      return d;
    }

    private static void require(boolean condition, String message) {
      if (!condition) {
        throw new IllegalArgumentException(message);
      }
    }
  }
}
