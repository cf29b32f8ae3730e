package io.fencedlock.redlock.driver;

import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.MultiLockReply;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The replies of the node scripts and commands, as both drivers receive them in RESP2 (integers as
 * {@code Long}, bulk strings as {@code String}, arrays as {@code List}), turned into the seam's
 * types. A reply of another shape throws (the driver fails the call with it).
 */
public final class NodeReplies {

  private NodeReplies() {}

  /**
   * Parses acquire.lua's and handoff.lua's replies: the predicted token alone (a bulk string: it
   * was written), or {status, value, written[, holder]}.
   */
  public static LockReply lockReply(@Nullable Object script) {
    if (script instanceof String written) {
      return new LockReply.Granted(Long.parseLong(written), true);
    }
    if (!(script instanceof List<?> reply)) {
      throw new IllegalStateException("neither a token nor an array");
    }
    long status = (Long) reply.get(0);
    if (status == 1) {
      return new LockReply.Granted(
          Long.parseLong(reply.get(1).toString()), (Long) reply.get(2) == 1L);
    }
    if (status == 0) {
      String holder = reply.size() > 3 ? String.valueOf(reply.get(3)) : null;
      return new LockReply.Refused(
          (Long) reply.get(1), Long.parseLong(reply.get(2).toString()), holder);
    }
    if (status == -1) {
      return new LockReply.Uninitialized();
    }
    throw new IllegalStateException("unknown status " + status);
  }

  /** Parses acquire-all.lua's reply. */
  public static MultiLockReply multiLockReply(List<Object> reply) {
    long status = (Long) reply.get(0);
    if (status == 1) {
      List<Long> counters = new ArrayList<>();
      for (Object counter : reply.subList(1, reply.size())) {
        counters.add(Long.parseLong(counter.toString()));
      }
      return new MultiLockReply.Granted(counters);
    }
    if (status == 0) {
      return new MultiLockReply.Refused(
          (int) ((Long) reply.get(1) - 1), String.valueOf(reply.get(2)), (Long) reply.get(3));
    }
    if (status == -1) {
      return new MultiLockReply.Uninitialized();
    }
    throw new IllegalStateException("unknown status " + status);
  }

  /** Parses init-node.lua's {status, epoch}. */
  public static InitReply initReply(List<Object> reply) {
    long status = (Long) reply.get(0);
    String epoch = String.valueOf(reply.get(1));
    return switch ((int) status) {
      case 1 -> new InitReply(InitReply.Outcome.SET, Long.parseLong(epoch));
      case 0 -> new InitReply(InitReply.Outcome.ALREADY_INITIALIZED, Long.parseLong(epoch));
      case -1 -> new InitReply(InitReply.Outcome.OTHER_INCARNATION, 0);
      default -> throw new IllegalStateException("unknown init-node.lua status " + status);
    };
  }

  /** The server's {@code run_id} from an {@code INFO server} reply, or "" if it reports none. */
  public static String runId(Object info) {
    for (String line : String.valueOf(info).split("\r?\n")) {
      if (line.startsWith("run_id:")) {
        return line.substring("run_id:".length()).trim();
      }
    }
    return "";
  }
}
