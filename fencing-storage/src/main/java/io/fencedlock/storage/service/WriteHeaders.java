package io.fencedlock.storage.service;

import io.fencedlock.storage.StorageProtocol;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;

/**
 * The fencing headers of a PUT or fence, validated. Immutable.
 *
 * @param token the fencing token, non-negative
 * @param owner the lease owner id
 */
record WriteHeaders(long token, String owner) {

  /**
   * Reads and validates {@link StorageProtocol#TOKEN_HEADER} and {@link
   * StorageProtocol#OWNER_HEADER}; each must appear exactly once.
   *
   * @throws HttpProblem 400 naming the header that is missing or malformed
   */
  static WriteHeaders parse(HttpFields headers) {
    String tokenText = single(headers, StorageProtocol.TOKEN_HEADER);
    long token;
    try {
      token = StorageProtocol.parseToken(tokenText);
    } catch (IllegalArgumentException e) {
      throw HttpProblem.badRequest(StorageProtocol.TOKEN_HEADER + ": " + e.getMessage());
    }
    String owner = single(headers, StorageProtocol.OWNER_HEADER);
    if (!StorageProtocol.isValidOwner(owner)) {
      throw HttpProblem.badRequest(
          StorageProtocol.OWNER_HEADER
              + ": must be 1-"
              + StorageProtocol.MAX_OWNER_LENGTH
              + " visible ASCII characters");
    }
    return new WriteHeaders(token, owner);
  }

  private static String single(HttpFields headers, String name) {
    List<String> values = headers.getValuesList(name);
    if (values.isEmpty()) {
      throw HttpProblem.badRequest("missing header " + name);
    }
    if (values.size() > 1) {
      throw HttpProblem.badRequest("header " + name + " given more than once");
    }
    return values.get(0).strip();
  }
}
