package io.fencedlock.bench;

import io.netty.channel.nio.NioEventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * One {@link RedissonClient} per node, as {@code RedissonRedLock} requires, on one shared 2-thread
 * Netty event loop so Redisson gets the same I/O threads as the Lettuce systems. Thread-safe.
 */
final class RedissonClients implements AutoCloseable {
  /** Enough pooled connections that 32 threads never queue for one. */
  private static final int POOL_SIZE = 48;

  private final NioEventLoopGroup loop = new NioEventLoopGroup(2);
  private final List<RedissonClient> clients = new ArrayList<>();

  RedissonClients(List<String> uris) {
    for (String uri : uris) {
      Config config = new Config();
      config.setEventLoopGroup(loop);
      config.setThreads(2);
      config
          .useSingleServer()
          .setAddress(uri)
          .setConnectionPoolSize(POOL_SIZE)
          .setConnectionMinimumIdleSize(POOL_SIZE / 2)
          .setTimeout((int) BenchTiming.COMMAND_TIMEOUT.toMillis());
      clients.add(Redisson.create(config));
    }
  }

  List<RedissonClient> all() {
    return clients;
  }

  RedissonClient first() {
    return clients.get(0);
  }

  @Override
  public void close() {
    clients.forEach(RedissonClient::shutdown);
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
  }
}
