package dev.baton.store.postgres;

import dev.baton.agent.SessionSnapshot;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot row as its table holds it: the snapshot with its state's messages left out, and where
 * they are, the first {@code historyLength} messages of the branch {@code branchId}.
 *
 * @param snapshot the snapshot; its state, if any, has no messages
 * @param branchId the branch that holds the messages, or null when the state has none
 * @param historyLength how many messages the state has
 */
record StoredRow(SessionSnapshot snapshot, @Nullable UUID branchId, int historyLength) {

  /** Whether the row has a state with messages to read from its branch. */
  boolean hasMessages() {
    return snapshot.state() != null && branchId != null && historyLength > 0;
  }
}
