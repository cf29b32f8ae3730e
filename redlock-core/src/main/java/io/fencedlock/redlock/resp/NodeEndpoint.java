package io.fencedlock.redlock.resp;

import io.lettuce.core.RedisURI;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a node is and how to log in, from its URI ({@code
 * redis://[[user]:password@]host:port[/db]}, parsed by Lettuce's {@link RedisURI} as everywhere
 * else in the library).
 *
 * @param host the host name or address
 * @param port the TCP port
 * @param username the ACL user, or null for the default user
 * @param password the password, or null for none
 * @param database the database to SELECT (0 sends nothing)
 */
record NodeEndpoint(
    String host, int port, @Nullable String username, @Nullable String password, int database) {

  /**
   * Whether this driver can reach the node at {@code uri}: plain TCP. TLS ({@code rediss://}), Unix
   * sockets and Sentinel need {@link io.fencedlock.redlock.lettuce.LettuceNodeDriver}.
   */
  static boolean supports(String uri) {
    return isPlainTcp(RedisURI.create(uri));
  }

  private static boolean isPlainTcp(RedisURI parsed) {
    return !parsed.isSsl()
        && parsed.getSocket() == null
        && parsed.getSentinels().isEmpty()
        && parsed.getHost() != null;
  }

  static NodeEndpoint of(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    if (!isPlainTcp(parsed)) {
      throw new IllegalArgumentException(
          "the RESP driver speaks plain TCP only (no TLS, Unix socket or Sentinel); use"
              + " LettuceNodeDriver for such nodes");
    }
    char[] password = parsed.getPassword();
    return new NodeEndpoint(
        parsed.getHost(),
        parsed.getPort(),
        parsed.getUsername(),
        password == null || password.length == 0 ? null : new String(password),
        parsed.getDatabase());
  }

  /** {@code host:port}, never the password. */
  String label() {
    return host + ":" + port;
  }

  /** The commands that log in and select the database, before anything else on a connection. */
  List<String[]> login() {
    List<String[]> commands = new ArrayList<>();
    if (password != null) {
      commands.add(
          username == null
              ? new String[] {"AUTH", password}
              : new String[] {"AUTH", username, password});
    }
    if (database != 0) {
      commands.add(new String[] {"SELECT", Integer.toString(database)});
    }
    return commands;
  }

  @Override
  public String toString() {
    return label(); // a record's default toString would print the password
  }
}
