package io.fencedlock.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately tiny blocking RESP2 client: one fresh socket per command, so a test can never
 * leave a connection in a bad state for the next one, and a paused server only costs one timeout.
 *
 * <p>Stateless and thread-safe.
 */
final class RespClient {
  private RespClient() {}

  /**
   * Sends one command and reads one reply.
   *
   * @return String (simple or bulk string), Long, List of replies, or null (nil bulk or array)
   * @throws RedisReplyException for an error reply, also one nested in an array
   * @throws UncheckedIOException if connecting, writing or reading fails or times out
   */
  static Object call(String host, int port, Duration timeout, String... args) {
    int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), millis);
      socket.setSoTimeout(millis);
      socket.setTcpNoDelay(true);
      OutputStream out = socket.getOutputStream();
      out.write(encode(args));
      out.flush();
      return read(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          args[0] + " to " + host + ":" + port + " failed: " + e.getMessage(), e);
    }
  }

  /** Encodes a command as a RESP array of bulk strings. */
  static byte[] encode(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeAscii(out, "*" + args.length + "\r\n");
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      writeAscii(out, "$" + bytes.length + "\r\n");
      out.writeBytes(bytes);
      writeAscii(out, "\r\n");
    }
    return out.toByteArray();
  }

  /** Reads one complete reply. */
  static Object read(InputStream in) throws IOException {
    int type = in.read();
    if (type == -1) {
      throw new EOFException("connection closed before a reply arrived");
    }
    String line = readLine(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new RedisReplyException(line);
      case ':':
        return Long.parseLong(line);
      case '$':
        return readBulk(in, Integer.parseInt(line));
      case '*':
        return readArray(in, Integer.parseInt(line));
      default:
        throw new IOException("not a RESP2 reply, type byte 0x" + Integer.toHexString(type));
    }
  }

  private static String readBulk(InputStream in, int length) throws IOException {
    if (length < 0) {
      return null;
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException("bulk string truncated after " + bytes.length + " bytes");
    }
    if (in.read() != '\r' || in.read() != '\n') {
      throw new IOException("bulk string not terminated by CRLF");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static List<Object> readArray(InputStream in, int count) throws IOException {
    if (count < 0) {
      return null;
    }
    List<Object> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      items.add(read(in));
    }
    return items;
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != '\r') {
      if (b == -1) {
        throw new EOFException("connection closed inside a reply line");
      }
      line.write(b);
    }
    if (in.read() != '\n') {
      throw new IOException("reply line not terminated by CRLF");
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private static void writeAscii(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
  }
}
