package io.fencedlock.faultproxy;

import io.fencedlock.testkit.support.Timing;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/**
 * A blocking test client for traffic through a proxy. Every read is bounded by a socket timeout, so
 * a broken proxy fails the test instead of hanging it. Not thread-safe.
 */
final class TcpClient implements AutoCloseable {

  private final Socket socket;

  private TcpClient(Socket socket) {
    this.socket = socket;
  }

  static TcpClient connect(String host, int port) {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(host, port), (int) Timing.AWAIT.toMillis());
      socket.setSoTimeout((int) Timing.AWAIT.toMillis());
      return new TcpClient(socket);
    } catch (IOException e) {
      closeQuietly(socket);
      throw new UncheckedIOException("connect to " + host + ":" + port + " failed", e);
    }
  }

  void write(byte[] data) throws IOException {
    socket.getOutputStream().write(data);
    socket.getOutputStream().flush();
  }

  /** Writes {@code data} and reads back exactly as many bytes. */
  byte[] roundTrip(byte[] data) throws IOException {
    write(data);
    return readExactly(data.length);
  }

  byte[] readExactly(int length) throws IOException {
    byte[] data = new byte[length];
    int offset = 0;
    InputStream in = socket.getInputStream();
    while (offset < length) {
      int read = in.read(data, offset, length - offset);
      if (read < 0) {
        throw new IOException("EOF after " + offset + " of " + length + " bytes");
      }
      offset += read;
    }
    return data;
  }

  /** Reads until EOF and returns everything; a reset propagates as an exception. */
  byte[] readToEnd() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int read;
    while ((read = socket.getInputStream().read(buffer)) >= 0) {
      out.write(buffer, 0, read);
    }
    return out.toByteArray();
  }

  /**
   * Waits up to {@code window} for data; returns what arrived (empty if nothing) or null on EOF.
   */
  byte[] readWithin(Duration window) throws IOException {
    int previous = socket.getSoTimeout();
    socket.setSoTimeout((int) Math.max(1, window.toMillis()));
    byte[] buffer = new byte[8192];
    try {
      int read = socket.getInputStream().read(buffer);
      return read < 0 ? null : Arrays.copyOf(buffer, read);
    } catch (SocketTimeoutException e) {
      return new byte[0];
    } finally {
      socket.setSoTimeout(previous);
    }
  }

  /** Half-closes: the proxy sees EOF on the upstream direction. */
  void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  @Override
  public void close() {
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing a test socket; nothing useful to do with the failure
    }
  }
}
