package dev.baton.store.postgres;

import dev.baton.ai.Message;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The messages of recently used history branches, so that a turn's commit can tell which of its
 * messages are already stored by comparing references rather than reading the history back, and a
 * read can skip fetching messages this instance already holds.
 *
 * <p>Safe to share between instances, processes and time because of one invariant of the tables:
 * the message at a position of a branch never changes once written, and a branch ID is a random
 * UUID that is never reused. So a branch's known messages can only grow, and what the cache holds
 * for a branch is right for as long as anyone can ask for that branch. Entries hold the same
 * immutable {@link Message} instances the agents hold, so the cache costs references, not copies.
 *
 * <p>Bounded by the total number of messages it refers to, least recently used branches going
 * first; a size of 0 turns it off. Thread-safe.
 */
final class HistoryCache {
  private final int maxMessages;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<UUID, List<Message>> branches = new LinkedHashMap<>(16, 0.75f, true);
  private long size; // messages referred to, guarded by lock

  HistoryCache(int maxMessages) {
    this.maxMessages = maxMessages;
  }

  /** The first {@code length} messages of the branch, or null when fewer are known. */
  @Nullable List<Message> get(UUID branchId, int length) {
    lock.lock();
    try {
      List<Message> known = branches.get(branchId);
      return known == null || known.size() < length ? null : known.subList(0, length);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records that the branch's first {@code messages.size()} messages are {@code messages}, an
   * immutable list, unless more of them are known already.
   */
  void remember(UUID branchId, List<Message> messages) {
    if (messages.isEmpty() || messages.size() > maxMessages) {
      return;
    }
    lock.lock();
    try {
      List<Message> known = branches.get(branchId);
      if (known != null && known.size() >= messages.size()) {
        return;
      }
      branches.put(branchId, messages);
      size += messages.size() - (known == null ? 0 : known.size());
      for (Iterator<Map.Entry<UUID, List<Message>>> eldest = branches.entrySet().iterator();
          size > maxMessages && eldest.hasNext(); ) {
        size -= eldest.next().getValue().size();
        eldest.remove();
      }
    } finally {
      lock.unlock();
    }
  }
}
