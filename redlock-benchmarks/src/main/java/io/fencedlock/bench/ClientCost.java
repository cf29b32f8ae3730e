package io.fencedlock.bench;

/**
 * What a stretch of a run cost: this JVM's (the client's) CPU time and bytes allocated, and the CPU
 * time the Redis server processes used in the same stretch ({@link ServerCpu}).
 *
 * @param cpuNanos process CPU time, without the in-process fault proxy's threads; negative if the
 *     JVM cannot tell
 * @param allocatedBytes bytes allocated on the heap by the JVM's threads, without the fault
 *     proxy's; negative if the JVM cannot tell
 * @param serverCpuNanos CPU time (user + system) of all Redis server processes; negative if unknown
 *     (no /proc, or no servers given)
 */
record ClientCost(long cpuNanos, long allocatedBytes, long serverCpuNanos) {
  static final ClientCost ZERO = new ClientCost(0, 0, 0);

  ClientCost plus(ClientCost other) {
    return new ClientCost(
        sum(cpuNanos, other.cpuNanos),
        sum(allocatedBytes, other.allocatedBytes),
        sum(serverCpuNanos, other.serverCpuNanos));
  }

  /** Microseconds of client CPU per operation; NaN if unknown or no operation. */
  double cpuMicrosPer(long operations) {
    return microsPer(cpuNanos, operations);
  }

  /** Microseconds of the servers' CPU per operation; NaN if unknown or no operation. */
  double serverCpuMicrosPer(long operations) {
    return microsPer(serverCpuNanos, operations);
  }

  /** Bytes allocated per operation; NaN if unknown or no operation. */
  double bytesPer(long operations) {
    return allocatedBytes < 0 || operations <= 0
        ? Double.NaN
        : (double) allocatedBytes / operations;
  }

  private static double microsPer(long nanos, long operations) {
    return nanos < 0 || operations <= 0 ? Double.NaN : nanos / 1e3 / operations;
  }

  private static long sum(long a, long b) {
    return a < 0 || b < 0 ? -1 : a + b;
  }
}
