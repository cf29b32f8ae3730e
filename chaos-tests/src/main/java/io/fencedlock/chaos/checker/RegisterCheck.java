package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Compares a register's final value with the writes made to it: every acknowledged entry must be
 * there (no lost write), nothing that was refused or never written may be, and the entries must be
 * in strictly increasing token order. Pure; thread-safe.
 *
 * @param lost acknowledged writes missing from the final value
 * @param phantom entries of refused writes, or of no write at all
 * @param disorder adjacent entries whose tokens do not increase
 */
record RegisterCheck(long lost, long phantom, long disorder, List<String> details) {

  static RegisterCheck of(String registerName, String finalValue, List<OpPair> writes) {
    List<String> entries = Entries.parse(finalValue);
    Set<String> present = new HashSet<>(entries);
    Set<String> acknowledged = new HashSet<>();
    Set<String> possible = new HashSet<>();
    List<String> details = new java.util.ArrayList<>();
    long lost = 0;
    for (OpPair w : writes) {
      String entry = w.invoke().stringValue(Fields.ENTRY);
      if (w.outcome() == OpType.OK) {
        acknowledged.add(entry);
        if (!present.contains(entry)) {
          lost++;
          details.add(
              registerName
                  + ": acknowledged write "
                  + entry
                  + " of process "
                  + w.process()
                  + " is lost");
        }
      }
      if (w.outcome() != OpType.FAIL) {
        possible.add(entry);
      }
    }
    long phantom = entries.stream().filter(e -> !possible.contains(e)).count();
    if (phantom > 0) {
      details.add(registerName + ": " + phantom + " entries come from refused or unknown writes");
    }
    long disorder = 0;
    for (int i = 1; i < entries.size(); i++) {
      if (Entries.token(entries.get(i)) <= Entries.token(entries.get(i - 1))) {
        disorder++;
        details.add(registerName + ": entry " + entries.get(i) + " follows " + entries.get(i - 1));
      }
    }
    return new RegisterCheck(lost, phantom, disorder, details);
  }

  long total() {
    return lost + phantom + disorder;
  }
}
