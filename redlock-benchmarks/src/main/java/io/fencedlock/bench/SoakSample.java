package io.fencedlock.bench;

/**
 * One reading of the soak, taken right after a full GC.
 *
 * @param minute minutes since the soak started
 * @param heapUsedMb heap in use after GC
 * @param directUsedMb direct buffer memory in use after GC, off the heap (the RESP driver's socket
 *     buffers among it); reported, not a target
 * @param threads live threads in the JVM
 * @param operations leases acquired so far
 * @param errors acquires that failed so far: contended waits that ran out of time
 */
record SoakSample(
    double minute,
    double heapUsedMb,
    double directUsedMb,
    int threads,
    long operations,
    long errors) {}
