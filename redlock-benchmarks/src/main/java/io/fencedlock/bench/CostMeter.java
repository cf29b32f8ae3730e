package io.fencedlock.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;

/**
 * Samples what the client side of a run costs, around a stretch in which one system alone works (a
 * turn of scenarios 1 and 4, the measuring window of 2 and 3): process CPU time ({@code
 * getProcessCpuTime}: every thread of the JVM, so also garbage collection, the JIT and the client's
 * I/O threads) and the sum of {@code getThreadAllocatedBytes} over every live thread. The threads
 * of the in-process fault proxy (scenario 4) are left out of both, since a real client would not
 * run them. Beside these, the CPU time the Redis server processes used in the same stretch ({@link
 * ServerCpu}), read outside the client's sample so that reading /proc is not charged to the client.
 *
 * <p>Linux reports process CPU in clock ticks (10 ms): each stretch's figure is off by up to a tick
 * either way, and the errors of a system's 25 turns per repetition mostly cancel (about 1 % of its
 * CPU time in a full run, a few per cent in a quick one). The sampling thread's own allocations for
 * the sample are left out; threads that end during a stretch lose what they allocated in it. Not
 * thread-safe: one meter per measuring thread.
 */
final class CostMeter {
  /** Threads whose names start with this are the fault proxy's, not the client's. */
  static final String EXCLUDED_PREFIX = "fault-proxy";

  private final com.sun.management.ThreadMXBean threads;
  private final com.sun.management.OperatingSystemMXBean os;
  private final long[] excluded;
  private final ServerCpu servers;

  private CostMeter(long[] excluded, ServerCpu servers) {
    this.threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    this.os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    this.excluded = excluded;
    this.servers = servers;
  }

  /**
   * A meter leaving out the threads, alive now, whose names start with {@link #EXCLUDED_PREFIX},
   * and reading the CPU time of {@code servers} ({@link ServerCpu#NONE}: not measured).
   */
  static CostMeter create(ServerCpu servers) {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    ThreadInfo[] infos = mx.getThreadInfo(mx.getAllThreadIds(), 0);
    return new CostMeter(
        Arrays.stream(infos)
            .filter(info -> info != null && info.getThreadName().startsWith(EXCLUDED_PREFIX))
            .mapToLong(ThreadInfo::getThreadId)
            .sorted()
            .toArray(),
        servers);
  }

  /**
   * The JVM's counters now.
   *
   * @param processCpu process CPU time in ns, or -1
   * @param excludedCpu CPU time of the excluded threads in ns
   * @param serverCpu CPU time of the Redis servers in ns, or -1
   * @param ids the live threads, sorted
   * @param allocated bytes allocated by each of {@code ids} (-1 for one that ended meanwhile)
   * @param self the sampling thread
   * @param selfBefore what it had allocated when the sample began
   * @param selfAfter what it had allocated when the sample ended
   */
  record Snapshot(
      long processCpu,
      long excludedCpu,
      long serverCpu,
      long[] ids,
      long[] allocated,
      long self,
      long selfBefore,
      long selfAfter) {}

  /**
   * Opens a stretch: the servers first (reading /proc allocates), then allocations, CPU last, so
   * the sample's own work falls outside the client's figures.
   */
  Snapshot start() {
    long serverCpu = servers.nanos();
    Allocations allocations = allocationsNow();
    long excludedCpu = excludedCpu();
    long cpu = os.getProcessCpuTime();
    return snapshot(cpu, excludedCpu, serverCpu, allocations);
  }

  /** Closes the stretch opened by {@code start}: CPU first, then allocations, the servers last. */
  ClientCost since(Snapshot start) {
    long cpu = os.getProcessCpuTime();
    long excludedCpu = excludedCpu();
    Allocations allocations = allocationsNow();
    long serverCpu = servers.nanos();
    Snapshot end = snapshot(cpu, excludedCpu, serverCpu, allocations);
    ClientCost cost = between(start, end, excluded);
    return threads.isThreadAllocatedMemoryEnabled()
        ? cost
        : new ClientCost(cost.cpuNanos(), -1, cost.serverCpuNanos());
  }

  /** Every live thread's allocation counter, read between two readings of this thread's own. */
  private record Allocations(long[] ids, long[] allocated, long selfBefore, long selfAfter) {}

  private Allocations allocationsNow() {
    long selfBefore = threads.getCurrentThreadAllocatedBytes();
    long[] ids = sortedThreadIds();
    long[] allocated = threads.getThreadAllocatedBytes(ids);
    long selfAfter = threads.getCurrentThreadAllocatedBytes();
    return new Allocations(ids, allocated, selfBefore, selfAfter);
  }

  private static Snapshot snapshot(
      long cpu, long excludedCpu, long serverCpu, Allocations allocations) {
    return new Snapshot(
        cpu,
        excludedCpu,
        serverCpu,
        allocations.ids(),
        allocations.allocated(),
        Thread.currentThread().getId(),
        allocations.selfBefore(),
        allocations.selfAfter());
  }

  /**
   * The cost between two snapshots: CPU without the excluded threads', and allocations summed
   * thread by thread, matched by id. A thread that started in between counts with all it allocated,
   * one that ended counts nothing; the sampling thread counts from the end of the first sample to
   * the beginning of the second. The servers' CPU is the difference of the two readings, -1 if
   * either is unknown.
   */
  static ClientCost between(Snapshot start, Snapshot end, long[] excludedSorted) {
    long cpu =
        start.processCpu() < 0 || end.processCpu() < 0
            ? -1
            : Math.max(
                0,
                end.processCpu() - start.processCpu() - (end.excludedCpu() - start.excludedCpu()));
    long bytes = 0;
    for (int i = 0; i < end.ids().length; i++) {
      long id = end.ids()[i];
      long now = end.allocated()[i];
      if (now < 0 || Arrays.binarySearch(excludedSorted, id) >= 0) {
        continue; // ended meanwhile, or not the client's
      }
      if (id == end.self()) {
        now = end.selfBefore();
      }
      int before = Arrays.binarySearch(start.ids(), id);
      long then =
          before < 0 ? 0 : id == start.self() ? start.selfAfter() : start.allocated()[before];
      bytes += Math.max(0, now - Math.max(0, then));
    }
    long serverCpu =
        start.serverCpu() < 0 || end.serverCpu() < 0
            ? -1
            : Math.max(0, end.serverCpu() - start.serverCpu());
    return new ClientCost(cpu, bytes, serverCpu);
  }

  private long[] sortedThreadIds() {
    long[] ids = threads.getAllThreadIds();
    Arrays.sort(ids);
    return ids;
  }

  private long excludedCpu() {
    long sum = 0;
    for (long id : excluded) {
      long cpu = threads.getThreadCpuTime(id);
      sum += Math.max(0, cpu); // -1: it ended; what it used before is lost either way
    }
    return sum;
  }
}
