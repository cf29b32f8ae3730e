package io.fencedlock.bench;

import org.jspecify.annotations.Nullable;

/** Receives one RESP reply. Called on the thread that parses replies; must not block. */
interface ReplyHandler {

  /**
   * @param kind what the reply was
   * @param integer the value of an {@link ReplyKind#INTEGER} reply, else 0
   * @param error the message of an {@link ReplyKind#ERROR} reply, else null
   */
  void onReply(ReplyKind kind, long integer, @Nullable String error);
}
