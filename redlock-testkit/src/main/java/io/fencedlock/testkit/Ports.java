package io.fencedlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks free loopback ports and remembers which ones nodes of this JVM own.
 *
 * <p>The reservation set is JVM-wide on purpose: a killed node keeps its port for its restart, and
 * the kernel may hand that port out again from {@code ServerSocket(0)}, so we must not give it to a
 * second node of the same JVM. Other processes can still take a port; callers retry for that.
 *
 * <p>Thread-safe.
 */
final class Ports {
  private static final int MAX_PROBES = 100;
  private static final Set<Integer> RESERVED = ConcurrentHashMap.newKeySet();

  /** The production port source, backed by this class's JVM-wide reservations. */
  static final PortSource JVM_WIDE =
      new PortSource() {
        @Override
        public int reserve() {
          return Ports.reserve();
        }

        @Override
        public void release(int port) {
          Ports.release(port);
        }
      };

  private Ports() {}

  /** Returns a port that was free a moment ago and is owned by no other node of this JVM. */
  static int reserve() {
    for (int i = 0; i < MAX_PROBES; i++) {
      int port = probeFreePort();
      if (RESERVED.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free loopback port after " + MAX_PROBES + " probes");
  }

  static void release(int port) {
    RESERVED.remove(port);
  }

  private static int probeFreePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind an ephemeral loopback port", e);
    }
  }
}
