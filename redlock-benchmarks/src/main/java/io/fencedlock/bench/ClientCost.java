package io.fencedlock.bench;

/**
 * What a stretch of a run cost this JVM, the client's side: CPU time and bytes allocated. The Redis
 * servers are separate processes and are not in it.
 *
 * @param cpuNanos process CPU time, without the in-process fault proxy's threads; negative if the
 *     JVM cannot tell
 * @param allocatedBytes bytes allocated on the heap by the JVM's threads, without the fault
 *     proxy's; negative if the JVM cannot tell
 */
record ClientCost(long cpuNanos, long allocatedBytes) {
  static final ClientCost ZERO = new ClientCost(0, 0);

  ClientCost plus(ClientCost other) {
    return new ClientCost(sum(cpuNanos, other.cpuNanos), sum(allocatedBytes, other.allocatedBytes));
  }

  /** Microseconds of CPU per operation; NaN if unknown or no operation. */
  double cpuMicrosPer(long operations) {
    return cpuNanos < 0 || operations <= 0 ? Double.NaN : cpuNanos / 1e3 / operations;
  }

  /** Bytes allocated per operation; NaN if unknown or no operation. */
  double bytesPer(long operations) {
    return allocatedBytes < 0 || operations <= 0
        ? Double.NaN
        : (double) allocatedBytes / operations;
  }

  private static long sum(long a, long b) {
    return a < 0 || b < 0 ? -1 : a + b;
  }
}
