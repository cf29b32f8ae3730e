package io.fencedlock.bench;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Lettuce connection per node on shared resources sized like redlock-core's (2 I/O threads), so
 * the floors pay the same client costs as our Redlock. Thread-safe.
 */
final class LettuceConnections implements AutoCloseable {
  private final ClientResources resources;
  private final List<RedisClient> clients = new ArrayList<>();
  private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();

  LettuceConnections(List<String> uris) {
    this.resources =
        DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
    for (String uri : uris) {
      RedisClient client = RedisClient.create(resources, RedisURI.create(uri));
      client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
      clients.add(client);
      connections.add(client.connect(StringCodec.UTF8));
    }
  }

  int size() {
    return connections.size();
  }

  /** Loads a script into every node's cache, so EVALSHA never answers NOSCRIPT; its SHA-1. */
  String loadEverywhere(String script) {
    String sha = null;
    for (StatefulRedisConnection<String, String> connection : connections) {
      sha = connection.sync().scriptLoad(script);
    }
    return sha;
  }

  RedisAsyncCommands<String, String> async(int node) {
    return connections.get(node).async();
  }

  @Override
  public void close() {
    connections.forEach(StatefulRedisConnection::close);
    clients.forEach(c -> c.shutdown(0, 1, TimeUnit.SECONDS));
    resources.shutdown(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
  }
}
