package io.fencedlock.faultproxy;

import java.util.ArrayList;
import java.util.List;

/**
 * The toxics of one link, in order, between the link's source and its {@link OutboundQueue}.
 *
 * <p>Mirrors Toxiproxy's ToxicLink: a toxic added to a live link goes to the end of the chain and
 * restarts the toxic before it; an update restarts that toxic; a removal flushes what the toxic
 * held to the next stage and restarts the one before it. Every (re)start draws toxicity again. Each
 * slot is a stable {@link ChunkSink}, so swapping the stage inside it does not require rewiring its
 * predecessor.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class ToxicChain {

  private final List<Slot> slots = new ArrayList<>();
  private final ChunkSink sink;
  private final StageContext context;

  /** Builds the chain a new connection starts with, drawing toxicity once per toxic. */
  ToxicChain(List<ToxicConfig> toxics, ChunkSink sink, StageContext context) {
    this.sink = sink;
    this.context = context;
    // Built back to front so each stage can be given the slot after it as its output.
    for (int i = toxics.size() - 1; i >= 0; i--) {
      ChunkSink out = slots.isEmpty() ? sink : slots.get(0);
      slots.add(0, new Slot(toxics.get(i), out));
    }
    slots.forEach(slot -> slot.stage.start());
  }

  /** Feeds one chunk read from the source. */
  void accept(Chunk chunk) {
    head().accept(chunk);
  }

  /** The source has ended. */
  void end() {
    head().end();
  }

  /** Adds a toxic at the end of the chain. */
  void add(ToxicConfig config) {
    Slot slot = new Slot(config, sink);
    slots.add(slot);
    slot.stage.start();
    if (slots.size() > 1) {
      restart(slots.size() - 2, slots.get(slots.size() - 2).config);
    }
  }

  /** Restarts a toxic with its new configuration. */
  void update(ToxicConfig config) {
    restart(indexOf(config.name()), config);
  }

  /** Removes a toxic; what it held goes on to the next stage. */
  void remove(String toxicName) {
    int index = indexOf(toxicName);
    Slot slot = slots.get(index);
    Held held = slot.stage.remove();
    ChunkSink next = next(index);
    // Until the predecessor is rewired, whatever it flushes must still reach the next stage.
    slot.stage = new PassThroughStage(slot.config, next, context);
    feed(held, next);
    slots.remove(index);
    if (index > 0) {
      restart(index - 1, slots.get(index - 1).config);
    }
  }

  /** Stops every stage and cancels its timers; the link is closing. */
  void shutdown() {
    slots.forEach(slot -> slot.stage.interrupt());
  }

  /** Bytes held by all stages. */
  long heldBytes() {
    long total = 0;
    for (Slot slot : slots) {
      total += slot.stage.heldBytes();
    }
    return total;
  }

  private void restart(int index, ToxicConfig config) {
    Slot slot = slots.get(index);
    Held held = slot.stage.interrupt();
    slot.config = config;
    slot.stage = slot.newStage(next(index));
    slot.stage.start();
    feed(held, slot.stage);
  }

  private static void feed(Held held, ChunkSink target) {
    held.chunks().forEach(target::accept);
    if (held.ended()) {
      target.end();
    }
  }

  private ChunkSink head() {
    return slots.isEmpty() ? sink : slots.get(0);
  }

  private ChunkSink next(int index) {
    return index + 1 < slots.size() ? slots.get(index + 1) : sink;
  }

  private int indexOf(String toxicName) {
    for (int i = 0; i < slots.size(); i++) {
      if (slots.get(i).config.name().equals(toxicName)) {
        return i;
      }
    }
    throw new IllegalStateException("toxic " + toxicName + " is not in this link's chain");
  }

  /** A position in the chain; the stage inside changes on every restart. */
  private final class Slot implements ChunkSink {
    private final ToxicState state = new ToxicState();
    private ToxicConfig config;
    private ToxicStage stage;

    Slot(ToxicConfig config, ChunkSink out) {
      this.config = config;
      this.stage = newStage(out);
    }

    ToxicStage newStage(ChunkSink out) {
      // Toxiproxy draws once per run of a toxic on a link, not per chunk.
      if (context.random().nextFloat() < config.toxicity()) {
        return ToxicStage.running(config, state, out, context);
      }
      return new PassThroughStage(config, out, context);
    }

    @Override
    public void accept(Chunk chunk) {
      stage.accept(chunk);
    }

    @Override
    public void end() {
      stage.end();
    }
  }
}
