package io.fencedlock.bench;

import java.time.Duration;

/** How long one run warms up (unrecorded) and then measures. */
record Window(Duration warmup, Duration measure) {}
