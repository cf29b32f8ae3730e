package io.fencedlock.redlock.spi;

/**
 * A node's marker and high-water mark, read to re-admit another node.
 *
 * @param initialized whether the node has its marker
 * @param epoch the marker's epoch (0 without a marker)
 * @param highWater the largest token ever written on the node (0 if none)
 */
public record NodeMarks(boolean initialized, long epoch, long highWater) {}
