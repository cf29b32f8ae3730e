package io.fencedlock.chaos.runner;

import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seed of a test run: {@code -Dfencedlock.chaos.seed=N} replays one, otherwise random; always
 * logged.
 */
final class Seeds {
  private static final Logger LOG = LoggerFactory.getLogger(Seeds.class);

  private Seeds() {}

  static long next(String test) {
    String fixed = System.getProperty("fencedlock.chaos.seed");
    long seed =
        fixed == null || fixed.isBlank()
            ? new SecureRandom().nextLong()
            : Long.parseLong(fixed.trim());
    LOG.warn("{}: seed {} (replay with -Dfencedlock.chaos.seed={})", test, seed, seed);
    return seed;
  }
}
