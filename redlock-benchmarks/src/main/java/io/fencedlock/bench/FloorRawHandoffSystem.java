package io.fencedlock.bench;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The floor of scenario 3's handoff: floor-raw's connections and commands, with the waiting done
 * inside the process, so that it costs nothing on the nodes. A client that finds the lock held here
 * queues (first come, first served) and parks. A holder that releases while a client is queued
 * gives it the lock by its {@link Step}, which the releasing thread writes to every node (a
 * two-step handoff's second step is mostly written by the I/O thread); the quorum-th {@code +OK} of
 * the next client's step unparks it directly from the I/O thread, and the releaser does not wait.
 * With nobody queued the holder deletes the key on every node, as floor-raw does. Like floor-raw,
 * not a lock: a refused {@code SET NX} is not retried, and the steps without a script compare no
 * owner. Takes part in scenario 3 only.
 */
final class FloorRawHandoffSystem implements LockSystem {
  /** How a holder gives the lock to the first queued client. */
  enum Step {
    /**
     * One fan-out, {@code SET key next PX ttl} with no {@code NX}: one step after the hold and one
     * thread woken, the least a handoff that moves the lock on the nodes can cost on this machine.
     */
    TRANSFER(false),
    /**
     * One fan-out of the smallest script that checks the owner ({@link
     * RespCommands#HAND_OVER_SCRIPT}), what a handoff step within one process must do at least
     * (ours also fences, in a longer script).
     */
    HAND_OVER(true),
    /**
     * Two steps, as between processes: {@code DEL key} on the lock's lead node (the first), and
     * once it has answered, the next client's take, {@code SET key next PX ttl} to every node,
     * written on the thread that read the answer. A client in another process learns of a release
     * from a node at the earliest, and its lease must be timed from a request it sent after that;
     * its take carries the release to the other nodes, as ours does (acquire.lua deletes the
     * released owner's key where it still holds it). So this is the least such a handoff costs:
     * cheaper than any real one, with no message to another process and no waiter queue on the
     * nodes. Without an owner check the take need not delete first: it overwrites.
     */
    RELEASE_THEN_TAKE(false),
    /**
     * {@link #RELEASE_THEN_TAKE} with the smallest scripts a fenced lock needs: compare-and-delete
     * on the lead ({@link RespCommands#RELEASE_SCRIPT}), then a take that deletes the released
     * owner's key where it still holds it, takes the lock and writes a predicted token ({@link
     * RespCommands#TAKE_SCRIPT}).
     */
    RELEASE_THEN_TAKE_SCRIPTS(true);

    private final boolean scripted;

    Step(boolean scripted) {
      this.scripted = scripted;
    }
  }

  private final String name;
  private final FloorRawSystem floor;
  private final Step handoff;
  private final ConcurrentHashMap<String, Turns> turns = new ConcurrentHashMap<>();

  /** The last token {@link Step#RELEASE_THEN_TAKE_SCRIPTS} gave; each take predicts the next. */
  private final AtomicLong tokens = new AtomicLong();

  FloorRawHandoffSystem(String name, List<String> uris, int needed, Step handoff) {
    this.name = name;
    this.floor = new FloorRawSystem(name, uris, needed);
    this.handoff = handoff;
    if (handoff.scripted) {
      try {
        floor.loadScripts();
      } catch (RuntimeException e) {
        floor.close();
        throw e;
      }
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return true;
  }

  @Override
  public boolean takesPart(String scenarioId) {
    return scenarioId.equals("3");
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    Turns lock = turns.computeIfAbsent(resource, r -> new Turns());
    Waiter me = new Waiter(ThreadLocalRandom.current().nextLong(), floor.statusStep());
    if (lock.takeOrQueue(me)) {
      try {
        floor.take(resource, me.owner);
      } catch (RuntimeException e) {
        throw abandoning(resource, lock, e);
      }
      return heldBy(resource, lock, me.owner);
    }
    if (!handedWithin(lock, me, maxWait)) {
      throw new NotGrantedException(name + ": " + resource + " is held");
    }
    // Handed the lock: this client holds it from here on, and passes it on if its step fails.
    boolean granted;
    try {
      granted = me.step.await(BenchTiming.COMMAND_TIMEOUT.toNanos());
    } catch (RuntimeException e) {
      throw abandoning(resource, lock, e);
    }
    if (!granted) {
      String error = me.step.firstError();
      throw abandoning(
          resource,
          lock,
          new NotGrantedException(
              name
                  + ": no quorum for the handoff of "
                  + resource
                  + (error == null ? "" : ": " + error)));
    }
    return heldBy(resource, lock, me.owner);
  }

  /** The lock as its holder sees it: released once; a second release throws. */
  private Held heldBy(String resource, Turns lock, long owner) {
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (!released.compareAndSet(false, true)) {
        throw new IllegalStateException(name + ": " + resource + " released twice");
      }
      release(resource, lock, owner);
    };
  }

  /**
   * Parks until a releaser has handed {@code me} the lock and its step is decided (true), or until
   * {@code maxWait} passed, or the thread was interrupted, and it left the queue (false: it never
   * held the lock). Handed the lock in the meantime, it holds it all the same (true).
   */
  private static boolean handedWithin(Turns lock, Waiter me, Duration maxWait) {
    try {
      me.step.await(maxWait.toNanos());
      return true;
    } catch (NotGrantedException timedOutOrInterrupted) {
      return !lock.leave(me);
    }
  }

  /** Gives the lock to the first queued client, or deletes it on every node if none is queued. */
  private void release(String resource, Turns lock, long owner) {
    Waiter next = lock.next();
    if (next == null) {
      abandon(resource, lock);
      return;
    }
    switch (handoff) {
      case TRANSFER -> floor.transfer(resource, next.owner, next.step);
      case HAND_OVER -> floor.handOver(resource, owner, next.owner, next.step);
      case RELEASE_THEN_TAKE, RELEASE_THEN_TAKE_SCRIPTS ->
          // Whatever the lead answers (deleted, not deleted, failed), the take decides.
          floor.releaseOnLead(
              resource,
              owner,
              handoff.scripted,
              (kind, integer, error) -> take(resource, owner, next));
      default -> throw new IllegalStateException("no handoff for " + handoff);
    }
  }

  /**
   * Sends {@code next}'s take, mostly from the I/O thread: a failure answers {@code next}'s step
   * instead of escaping into that thread, which would stop it. (Writing from the I/O thread would
   * wait for that thread itself if a connection had {@link RawConnection#MAX_PENDING} replies
   * outstanding; scenario 3 has a few at most.)
   */
  private void take(String resource, long predecessor, Waiter next) {
    try {
      if (handoff.scripted) {
        floor.takeFenced(resource, next.owner, tokens.incrementAndGet(), predecessor, next.step);
      } else {
        floor.transfer(resource, next.owner, next.step); // no owner to check: it overwrites
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < floor.nodeCount(); i++) {
        next.step.onReply(ReplyKind.ERROR, 0, "the take was not sent: " + e);
      }
    }
  }

  /**
   * Deletes the key on every node, then gives the lock to the first queued client with a plain
   * {@code SET} (the key is gone: no owner to check), or frees it. For a release with nobody
   * queued, and for a holder whose step failed (it may hold the key on a few nodes).
   */
  private void abandon(String resource, Turns lock) {
    try {
      // The lock stays taken here meanwhile, so no SET NX of ours overtakes the DEL; and on each
      // connection the DEL is written before the SET below, so it runs first on every node. (One
      // exception, too narrow to matter here: a step decided by three nodes while another thread
      // still writes it to the others, and a new holder's DEL or release reaching one of those
      // first, leaves a key there until the lease's TTL; the holders work 2 ms.)
      floor.delete(resource);
    } finally {
      // Even when waiting for the DEL failed (no quorum in time, an interrupt): never left taken.
      Waiter next = lock.nextOrFree();
      if (next != null) {
        floor.transfer(resource, next.owner, next.step);
      }
    }
  }

  /** {@link #abandon}s the lock for a holder that failed with {@code cause}, which it returns. */
  private RuntimeException abandoning(String resource, Turns lock, RuntimeException cause) {
    try {
      abandon(resource, lock);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
    return cause;
  }

  /** How many clients queue for {@code resource} here (for tests). */
  int queued(String resource) {
    Turns lock = turns.get(resource);
    return lock == null ? 0 : lock.queued();
  }

  @Override
  public void close() {
    floor.close();
  }

  /** A queued client: its owner id, and the step that will make it the holder. */
  private record Waiter(long owner, QuorumStep step) {}

  /** Who holds one resource in this process, and who queues for it. */
  private static final class Turns {
    private boolean held;
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

    /** Takes the lock if nobody here holds it (true); otherwise queues {@code waiter}. */
    synchronized boolean takeOrQueue(Waiter waiter) {
      if (!held) {
        held = true;
        return true;
      }
      queue.addLast(waiter);
      return false;
    }

    /** The first queued client, now the holder, or null if none is queued (the lock stays held). */
    synchronized @Nullable Waiter next() {
      return queue.pollFirst();
    }

    /** The first queued client, now the holder; if none is queued, the lock is free and null. */
    synchronized @Nullable Waiter nextOrFree() {
      Waiter next = queue.pollFirst();
      if (next == null) {
        held = false;
      }
      return next;
    }

    synchronized int queued() {
      return queue.size();
    }

    /** Leaves the queue; false if {@code waiter} was made the holder meanwhile. */
    synchronized boolean leave(Waiter waiter) {
      return queue.remove(waiter);
    }
  }
}
