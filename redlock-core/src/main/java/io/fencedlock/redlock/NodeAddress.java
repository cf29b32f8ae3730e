package io.fencedlock.redlock;

import io.lettuce.core.RedisURI;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Where a node URI leads, so that {@link RedlockConfig} can refuse two URIs that may reach the same
 * server: one server counted twice could make a quorum on its own. Two URIs are the same node when
 * they name the same Unix socket (after normalizing the path), or the same port on hosts that share
 * an address. Every address of this machine counts as one host: loopback and wildcard addresses,
 * and those of its network interfaces (a server bound to all interfaces answers on each, and {@code
 * localhost} resolves to both {@code 127.0.0.1} and {@code ::1}). The database number does not
 * matter: it selects a keyspace, not a server. A host name that does not resolve is compared by its
 * text.
 *
 * <p>This is a best effort by address: a port forward, a proxy or another machine's address of the
 * same server cannot be seen here. {@code Redlock.create} therefore also compares the {@code
 * run_id} every reachable node reports.
 */
final class NodeAddress {
  private static final String LOCAL_HOST = "this host";

  private final Set<String> hosts;
  private final int port;

  private NodeAddress(Set<String> hosts, int port) {
    this.hosts = hosts;
    this.port = port;
  }

  static NodeAddress of(RedisURI uri) {
    if (uri.getSocket() != null) {
      return new NodeAddress(Set.of("unix:" + normalize(uri.getSocket())), 0);
    }
    return new NodeAddress(resolve(uri.getHost()), uri.getPort());
  }

  /**
   * A name of the node that other clients compute alike, for {@link LeadNode}: the normalized path
   * of a socket, or the lowest resolved address and the port. Unlike {@link #sameServerAs}, an
   * interface address of this machine stays itself (clients on other machines name it so), and only
   * loopback and wildcard addresses become {@code localhost}. Zones are dropped: their indexes
   * differ between machines. Not the server's {@code run_id}: a restart changes it, and clients
   * that read it at different incarnations would pick different leads.
   */
  static String leadIdentity(RedisURI uri) {
    if (uri.getSocket() != null) {
      return "unix:" + normalize(uri.getSocket());
    }
    String host = uri.getHost();
    String lowest = null;
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        String name =
            address.isLoopbackAddress() || address.isAnyLocalAddress()
                ? "localhost"
                : address.getHostAddress().replaceFirst("%.*$", "");
        if (lowest == null || name.compareTo(lowest) < 0) {
          lowest = name;
        }
      }
    } catch (UnknownHostException | SecurityException e) {
      lowest = null;
    }
    return (lowest != null ? lowest : host.toLowerCase(Locale.ROOT)) + ":" + uri.getPort();
  }

  /** Whether both may lead to the same server. */
  boolean sameServerAs(NodeAddress other) {
    if (port != other.port) {
      return false;
    }
    for (String host : hosts) {
      if (other.hosts.contains(host)) {
        return true;
      }
    }
    return false;
  }

  private static String normalize(String socket) {
    Path path = Path.of(socket).toAbsolutePath().normalize();
    try {
      return Files.exists(path) ? path.toRealPath().toString() : path.toString();
    } catch (java.io.IOException e) {
      return path.toString(); // unreadable now: compare the path as written
    }
  }

  private static Set<String> resolve(String host) {
    Set<String> addresses = new HashSet<>();
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        addresses.add(canonical(address));
      }
    } catch (UnknownHostException | SecurityException e) {
      addresses.add(host.toLowerCase(Locale.ROOT)); // not resolvable now: compare by name
    }
    return addresses;
  }

  /**
   * One name per host: every address of this machine (loopback, wildcard, or any of its interfaces'
   * addresses: a server bound to all interfaces answers on each) is the local host; an IPv6 address
   * keeps its zone as an interface index, so that two spellings of one link compare equal.
   */
  private static String canonical(InetAddress address) {
    if (address.isLoopbackAddress() || address.isAnyLocalAddress() || isOwnAddress(address)) {
      return LOCAL_HOST;
    }
    if (address instanceof Inet6Address v6) {
      String bare = v6.getHostAddress().replaceFirst("%.*$", "");
      int zone =
          v6.getScopedInterface() != null ? v6.getScopedInterface().getIndex() : v6.getScopeId();
      return zone == 0 ? bare : bare + "%" + zone;
    }
    return address.getHostAddress();
  }

  private static boolean isOwnAddress(InetAddress address) {
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false; // cannot tell: treat it as another host
    }
  }
}
