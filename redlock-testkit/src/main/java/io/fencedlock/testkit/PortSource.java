package io.fencedlock.testkit;

/**
 * Hands out ports for new nodes and takes them back when a node is closed. A seam so that tests can
 * force the "port was taken between probe and bind" race; production code uses {@link
 * Ports#JVM_WIDE}.
 *
 * <p>Implementations must be thread-safe.
 */
interface PortSource {
  /** A port that is believed free and is not handed to anyone else until released. */
  int reserve();

  void release(int port);
}
