package io.fencedlock.faultproxy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A {@code host:port} address as the API writes it, with Go's parsing and formatting rules: IPv6
 * hosts in brackets, an empty or unspecified host meaning every interface, and bound wildcards
 * shown as {@code [::]:PORT}. Immutable and thread-safe.
 */
record HostPort(String host, int port) {

  /**
   * Parses {@code host:port}.
   *
   * @throws IllegalArgumentException with a Go-style message if the address is malformed
   */
  static HostPort parse(String address) {
    int colon = address.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("address " + address + ": missing port in address");
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("address " + address + ": too many colons in address");
    }
    String port = address.substring(colon + 1);
    try {
      int number = Integer.parseInt(port);
      if (number < 0 || number > 65535) {
        throw new NumberFormatException(port);
      }
      return new HostPort(host, number);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("address " + address + ": invalid port", e);
    }
  }

  /** Resolves the host; a wildcard becomes the JDK's any-address (dual-stack where possible). */
  InetSocketAddress resolve() {
    if (isWildcard()) {
      return new InetSocketAddress(port);
    }
    try {
      return new InetSocketAddress(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("lookup " + host + ": no such host", e);
    }
  }

  /** The resolved form of {@code address}, as a listener bound there would report it. */
  static String canonical(String address) {
    return format(parse(address).resolve());
  }

  /** Formats a socket address the way Go's {@code net.Addr.String()} does. */
  static String format(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null) {
      return address.getHostString() + ":" + address.getPort();
    }
    if (ip.isAnyLocalAddress()) {
      return "[::]:" + address.getPort();
    }
    if (ip instanceof Inet6Address v6) {
      return "[" + compress(v6) + "]:" + address.getPort();
    }
    return ip.getHostAddress() + ":" + address.getPort();
  }

  private boolean isWildcard() {
    return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::");
  }

  /** RFC 5952 text: the longest run of two or more zero groups becomes {@code ::}. */
  private static String compress(Inet6Address address) {
    byte[] bytes = address.getAddress();
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; i++) {
      int length = 0;
      while (i + length < 8 && groups[i + length] == 0) {
        length++;
      }
      if (length > bestLength) {
        bestStart = i;
        bestLength = length;
      }
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        text.append("::");
        i += bestLength - 1;
        continue;
      }
      if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
        text.append(':');
      }
      text.append(Integer.toHexString(groups[i]));
    }
    String scope =
        address.getScopedInterface() != null ? "%" + address.getScopedInterface().getName() : "";
    return text + scope;
  }
}
