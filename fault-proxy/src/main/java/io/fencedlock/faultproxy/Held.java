package io.fencedlock.faultproxy;

import java.util.List;

/**
 * What an interrupted toxic stage still held: data it had not emitted and whether the end of the
 * stream was waiting behind that data. Immutable.
 *
 * @param chunks chunks to hand to the replacement stage, oldest first
 * @param ended whether the input had ended but the end had not been passed on yet
 */
record Held(List<Chunk> chunks, boolean ended) {

  static final Held NOTHING = new Held(List.of(), false);

  Held {
    chunks = List.copyOf(chunks);
  }
}
