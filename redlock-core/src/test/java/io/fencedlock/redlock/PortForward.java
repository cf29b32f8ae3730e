package io.fencedlock.redlock;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain TCP forward from a local port to another, so that one server can be reached at two
 * addresses, as through a proxy or a port forward. Closing it closes every connection.
 */
final class PortForward implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  PortForward(int targetPort) {
    try {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread acceptor =
        new Thread(() -> accept(targetPort), "port-forward-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  private void accept(int targetPort) {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(client);
        sockets.add(server);
        pipe(client, server);
        pipe(server, client);
      } catch (IOException closed) {
        return; // the listener was closed
      }
    }
  }

  private static void pipe(Socket from, Socket to) {
    Thread copier =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException ended) {
                // one side closed: the other is closed below
              } finally {
                closeQuietly(to);
                closeQuietly(from);
              }
            },
            "port-forward-pipe");
    copier.setDaemon(true);
    copier.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // already closed
    }
    sockets.forEach(PortForward::closeQuietly);
  }
}
