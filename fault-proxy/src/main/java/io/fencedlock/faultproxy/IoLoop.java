package io.fencedlock.faultproxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.Iterator;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single thread that owns all proxy state: a {@link Selector} for socket readiness, a task
 * queue for work handed over by API threads, and a {@link TimerQueue} for timed toxics, whose
 * deadlines a {@link SelectorAlarm} keeps to the microsecond rather than the millisecond.
 *
 * <p>Thread-safety: {@link #execute}, {@link #call} and {@link #close} are thread-safe; every other
 * method must be called on the loop thread.
 */
final class IoLoop implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(IoLoop.class);

  /** Matches Go's io.Copy buffer: one read, at most one chunk of this size. */
  private static final int READ_BUFFER_BYTES = 32 * 1024;

  /**
   * How much a millisecond select may oversleep before the {@link SelectorAlarm} wakes it instead.
   * Waking through the alarm costs one more thread wake-up, about 0.05 to 0.1 ms on the project's
   * 2-core virtual machines, so below this the select times itself.
   */
  private static final long ALARM_MIN_OVERSLEEP_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

  private final Selector selector;
  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final TimerQueue timers = new TimerQueue();
  private final SelectorAlarm alarm;
  private final RandomGenerator random;
  private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
  private final Thread thread;
  private volatile boolean running = true;
  private boolean dispatching;

  private IoLoop(Selector selector, String threadName, long seed) {
    this.selector = selector;
    this.alarm = SelectorAlarm.start(selector, threadName + "-alarm");
    this.random = new Random(seed);
    this.thread = new Thread(this::run, threadName);
    this.thread.setDaemon(true);
  }

  /** Opens the selector and starts the loop thread; {@code seed} fixes every random draw. */
  static IoLoop start(String threadName, long seed) {
    try {
      IoLoop loop = new IoLoop(Selector.open(), threadName, seed);
      loop.thread.start();
      return loop;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a selector", e);
    }
  }

  /** Queues {@code task} to run on the loop thread. */
  void execute(Runnable task) {
    tasks.add(task);
    selector.wakeup();
  }

  /**
   * Runs {@code operation} on the loop thread and waits for its result; its unchecked exceptions
   * are rethrown here.
   *
   * @throws IllegalStateException if the loop is closed, or the wait times out or is interrupted
   */
  <T> T call(Supplier<T> operation, Duration timeout) {
    if (Thread.currentThread() == thread) {
      return operation.get();
    }
    if (!running) {
      throw new IllegalStateException("the fault proxy is closed");
    }
    CallTask<T> task = new CallTask<>(operation);
    execute(task);
    return await(task.result, timeout);
  }

  /** Registers {@code channel} with the selector; loop thread only. */
  SelectionKey register(SelectableChannel channel, int interestOps, IoHandler handler) {
    try {
      return channel.register(selector, interestOps, handler);
    } catch (ClosedChannelException e) {
      throw new UncheckedIOException("channel closed before registration", e);
    }
  }

  /** Schedules a timer on the loop; loop thread only. */
  Cancellable schedule(long delayNanos, Runnable task) {
    return timers.schedule(nanoTime() + Math.max(0, delayNanos), task);
  }

  long nanoTime() {
    return System.nanoTime();
  }

  RandomGenerator random() {
    return random;
  }

  /** The shared read buffer; safe because only the loop thread reads sockets. */
  ByteBuffer readBuffer() {
    return readBuffer.clear();
  }

  /**
   * Makes closes of registered channels take effect now: the JDK defers closing a registered socket
   * until its key is deregistered by a select, and a listener that is still open would accept
   * connections after the API said the proxy is disabled.
   */
  void flushCancelledKeys() {
    if (dispatching) {
      return; // the select that follows the current dispatch deregisters them anyway
    }
    try {
      selector.selectNow();
    } catch (IOException e) {
      log.warn("selectNow failed while flushing closed channels", e);
    }
  }

  /** Stops the loop and closes every channel still registered. Idempotent. */
  @Override
  public void close() {
    running = false;
    selector.wakeup();
    if (Thread.currentThread() != thread) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run() {
    while (running) {
      try {
        select();
        dispatchReadyKeys();
        runTasks();
        timers.runDue(nanoTime());
      } catch (IOException e) {
        log.error("selector failed; the fault proxy stops serving", e);
        running = false;
      } catch (RuntimeException e) {
        log.warn("unexpected failure in the I/O loop; continuing", e);
      }
    }
    closeSelector();
  }

  private void select() throws IOException {
    long now = nanoTime();
    long waitNanos = timers.nanosUntilNext(now);
    if (!tasks.isEmpty() || waitNanos == 0) {
      selector.selectNow();
    } else if (waitNanos < 0) {
      alarm.cancel();
      selector.select();
    } else {
      if (needsAlarm(waitNanos)) {
        alarm.wakeAt(now + waitNanos);
      } else {
        alarm.cancel();
      }
      selector.select(selectMillis(waitNanos));
    }
  }

  /**
   * The select timeout for a timer due in {@code waitNanos} (positive): whole milliseconds, rounded
   * up so that the select never returns before the timer is due.
   */
  static long selectMillis(long waitNanos) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos + 999_999));
  }

  /**
   * Whether the {@link SelectorAlarm} should wake the select for a timer due in {@code waitNanos}:
   * only if the select's own timeout would oversleep by more than {@link
   * #ALARM_MIN_OVERSLEEP_NANOS}; closer than that, a second thread's wake-up costs about as much.
   */
  static boolean needsAlarm(long waitNanos) {
    return TimeUnit.MILLISECONDS.toNanos(selectMillis(waitNanos)) - waitNanos
        > ALARM_MIN_OVERSLEEP_NANOS;
  }

  private void dispatchReadyKeys() {
    dispatching = true;
    try {
      Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
      while (ready.hasNext()) {
        SelectionKey key = ready.next();
        ready.remove();
        if (key.isValid()) {
          dispatch((IoHandler) key.attachment());
        }
      }
    } finally {
      dispatching = false;
    }
  }

  private static void dispatch(IoHandler handler) {
    try {
      handler.onReady();
    } catch (RuntimeException e) {
      log.warn("I/O handler failed; closing what it owns", e);
      handler.onFailure(e);
    }
  }

  private void runTasks() {
    // Only the tasks present now, so a task that queues another cannot starve the selector.
    for (int n = tasks.size(); n > 0; n--) {
      Runnable task = tasks.poll();
      if (task == null) {
        return;
      }
      task.run();
    }
  }

  private void closeSelector() {
    alarm.close();
    for (SelectionKey key : selector.keys()) {
      try {
        key.channel().close();
      } catch (IOException e) {
        log.debug("closing a channel at shutdown failed; nothing else to release", e);
      }
    }
    try {
      selector.close();
    } catch (IOException e) {
      log.debug("closing the selector failed; the loop is gone anyway", e);
    }
    Runnable orphan;
    while ((orphan = tasks.poll()) != null) {
      // Callers of call() would otherwise hang until their timeout; other tasks had only
      // connections to tidy, and those are closed with the selector.
      if (orphan instanceof CallTask<?> call) {
        call.abandon();
      }
    }
  }

  /** An operation handed over by {@link #call}, with the future its caller waits on. */
  private static final class CallTask<T> implements Runnable {
    private final Supplier<T> operation;
    private final CompletableFuture<T> result = new CompletableFuture<>();

    CallTask(Supplier<T> operation) {
      this.operation = operation;
    }

    @Override
    public void run() {
      try {
        result.complete(operation.get());
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      }
    }

    void abandon() {
      result.completeExceptionally(new IllegalStateException("the fault proxy is closed"));
    }
  }

  private static <T> T await(CompletableFuture<T> result, Duration timeout) {
    try {
      return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("loop operation failed", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out waiting for the I/O loop", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the I/O loop", e);
    }
  }
}
