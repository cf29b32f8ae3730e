package io.fencedlock.storage;

import io.fencedlock.storage.client.FencedStorageClient;
import java.util.regex.Pattern;

/**
 * The wire contract shared by the service and {@link FencedStorageClient}: header names, limits and
 * the rules for keys, owners and tokens. Stateless and thread-safe.
 *
 * <h2>HTTP contract</h2>
 *
 * <ul>
 *   <li>{@code PUT /objects/{key}} with headers {@value #TOKEN_HEADER} and {@value #OWNER_HEADER}
 *       and the value as body (at most {@link #MAX_VALUE_BYTES}). 200 {@code
 *       {"result":"accepted","key":k,"token":N,"owner":o}} or 409 {@code
 *       {"error":...,"result":"rejected","reason":"STALE"|"ALARM","currentToken":N,"key":k}}.
 *   <li>{@code POST /objects/{key}/fence}: same headers and responses; raises the object's highest
 *       token and owner without touching the value (the body is ignored and not read).
 *   <li>{@code GET /objects/{key}}: 200 with the raw value, its highest token in {@value
 *       #TOKEN_HEADER} and owner in {@value #OWNER_HEADER}; 404 {@code {"error":...,"key":k}} when
 *       no value was ever written, including when the object was only fenced.
 *   <li>{@code GET /stats}: {@link Stats} as JSON. {@code GET /health}: 200 {@code
 *       {"status":"ok"}}, or 503 when the database does not answer.
 *   <li>Bad input: 400 (header, key), 413 (body too large), 405 with {@code Allow} (method), 404
 *       (unknown path); always a JSON {@code {"error":...}} and never a change of state.
 * </ul>
 */
public final class StorageProtocol {

  /** Request and response header carrying the fencing token, a non-negative decimal long. */
  public static final String TOKEN_HEADER = "Fencing-Token";

  /** Request and response header carrying the lease owner id. */
  public static final String OWNER_HEADER = "Lock-Owner";

  /** Largest accepted value: 1 MiB. */
  public static final int MAX_VALUE_BYTES = 1024 * 1024;

  /** Longest accepted key. */
  public static final int MAX_KEY_LENGTH = 200;

  /** Longest accepted owner id. */
  public static final int MAX_OWNER_LENGTH = 128;

  /** Keys: 1 to 200 of {@code [A-Za-z0-9._:-]}, but not "." or ".." (URL normalisers eat them). */
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:-]{1,200}");

  /** Owners: 1 to 128 visible ASCII characters, so they survive an HTTP header unchanged. */
  private static final Pattern OWNER = Pattern.compile("[\\x21-\\x7E]{1,128}");

  /** Tokens on the wire: plain decimal digits, no sign, at most 19 of them. */
  private static final Pattern TOKEN = Pattern.compile("[0-9]{1,19}");

  private StorageProtocol() {}

  /** Returns whether {@code key} is a legal object key. */
  public static boolean isValidKey(String key) {
    return key != null && KEY.matcher(key).matches() && !key.equals(".") && !key.equals("..");
  }

  /** Returns whether {@code owner} is a legal owner id. */
  public static boolean isValidOwner(String owner) {
    return owner != null && OWNER.matcher(owner).matches();
  }

  /**
   * Checks a key.
   *
   * @throws IllegalArgumentException if the key is not legal
   */
  public static String requireValidKey(String key) {
    if (!isValidKey(key)) {
      throw new IllegalArgumentException(
          "key must be 1-" + MAX_KEY_LENGTH + " characters of [A-Za-z0-9._:-], not . or ..");
    }
    return key;
  }

  /**
   * Checks an owner id.
   *
   * @throws IllegalArgumentException if the owner is not legal
   */
  public static String requireValidOwner(String owner) {
    if (!isValidOwner(owner)) {
      throw new IllegalArgumentException(
          "owner must be 1-" + MAX_OWNER_LENGTH + " visible ASCII characters");
    }
    return owner;
  }

  /**
   * Checks a token.
   *
   * @throws IllegalArgumentException if the token is negative
   */
  public static long requireValidToken(long token) {
    if (token < 0) {
      throw new IllegalArgumentException("token must be >= 0 but was " + token);
    }
    return token;
  }

  /**
   * Parses a token header value.
   *
   * @throws IllegalArgumentException if it is not a non-negative decimal long
   */
  public static long parseToken(String text) {
    if (text == null || !TOKEN.matcher(text).matches()) {
      throw new IllegalArgumentException("token must be a non-negative decimal integer");
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("token must be at most " + Long.MAX_VALUE, e);
    }
  }
}
