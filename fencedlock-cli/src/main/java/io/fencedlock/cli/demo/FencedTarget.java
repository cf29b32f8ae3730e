package io.fencedlock.cli.demo;

import io.fencedlock.redlock.Lease;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The fenced path: every write goes to the storage service over HTTP with the lease's fencing token
 * and owner id, and the service rejects (409) a token older than the newest it has seen.
 *
 * <p>Thread-safe, as {@link FencedStorageClient} is.
 */
final class FencedTarget implements WriteTarget {
  private final FencedStorageClient client;
  private final String key;

  FencedTarget(FencedStorageClient client, String key) {
    this.client = client;
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public WriteOutcome write(Lease lease, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    WriteResult result = client.put(key, bytes, lease.fencingToken(), lease.ownerId());
    if (result instanceof WriteResult.Rejected rejected) {
      // The protocol answers every rejection with 409; the client turns it into this value.
      return new WriteOutcome(
          false,
          OptionalLong.of(rejected.currentToken()),
          "409 Conflict, " + rejected.reason() + ": current token " + rejected.currentToken());
    }
    return new WriteOutcome(true, OptionalLong.empty(), "200 OK");
  }

  @Override
  public Optional<ReadOutcome> read() {
    return client.get(key).map(FencedTarget::describe);
  }

  private static ReadOutcome describe(StoredObject stored) {
    return new ReadOutcome(stored.valueAsUtf8(), "highest token " + stored.token());
  }
}
