package io.fencedlock.redlock.driver;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the threads of one client (Lettuce's I/O and computation threads, the request timer, the
 * retry scheduler) and remembers them, so that a call that must not wait on the thread it runs on
 * can tell: {@code close()} from a callback on one of these threads finishes in the background
 * instead of waiting for itself. Thread-safe.
 */
public final class OwnThreads {
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private final AtomicInteger created = new AtomicInteger();

  /** Daemon threads named {@code prefix-N}, remembered until they end. */
  public ThreadFactory factory(String prefix) {
    return track(
        task -> {
          Thread thread = new Thread(task, prefix + "-" + created.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** The threads {@code delegate} makes, remembered until they end. */
  public ThreadFactory track(ThreadFactory delegate) {
    return task -> {
      Thread thread =
          delegate.newThread(
              () -> {
                try {
                  task.run();
                } finally {
                  threads.remove(Thread.currentThread());
                }
              });
      threads.add(thread);
      return thread;
    };
  }

  /** Whether the calling thread is one of this client's. */
  public boolean isCurrentThreadOwn() {
    return threads.contains(Thread.currentThread());
  }
}
