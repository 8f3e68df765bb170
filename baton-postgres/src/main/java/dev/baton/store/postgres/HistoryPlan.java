package dev.baton.store.postgres;

import dev.baton.ai.Message;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a save stores the messages of its state, given the branch its history most likely continues
 * (the rewritten row's own, else its parent's). The store writes only what is not stored yet:
 *
 * <ul>
 *   <li>{@link None}: the state has no messages.
 *   <li>{@link Reuse}: the messages are the first ones of the base branch already (the same
 *       history, or one trimmed at its end); nothing is written.
 *   <li>{@link Append}: the messages continue the base branch exactly where it ends, as a turn
 *       continues its parent; only the new ones are written, at the branch's end.
 *   <li>{@link Fork}: they diverge from what is stored, or continue a point that another history
 *       has since extended (two branches from one parent): a new branch holds the messages from the
 *       first that differs, and takes the ones before it from the base branch. With nothing in
 *       common (no base, or a history trimmed at its start), the new branch has no parent and holds
 *       every message.
 * </ul>
 *
 * So a commit writes what changed: the new messages of a turn, never the whole history again.
 */
sealed interface HistoryPlan {
  /** The branch the saved row references, or null when its state has no messages. */
  @Nullable UUID branchId();

  /** The state has no messages. */
  record None() implements HistoryPlan {
    @Override
    public @Nullable UUID branchId() {
      return null;
    }
  }

  /** The messages are the first {@code length} of {@code branchId} already. */
  record Reuse(UUID branchId, int length) implements HistoryPlan {}

  /** Messages {@code from} to {@code length - 1} go at the end of {@code branchId}. */
  record Append(UUID branchId, int from, int length) implements HistoryPlan {}

  /**
   * A new branch {@code branchId} whose first {@code base} messages are those of {@code
   * parentBranchId} (none when it is null) and which holds messages {@code base} to {@code length -
   * 1} itself.
   */
  record Fork(UUID branchId, @Nullable UUID parentBranchId, int base, int length)
      implements HistoryPlan {}

  /**
   * A stored branch to compare with: its first {@code stored.size()} messages are {@code stored},
   * and it holds {@code tip} messages in all.
   */
  record Base(UUID branchId, List<Message> stored, int tip) {}

  /**
   * The plan for saving {@code messages} given {@code base}.
   *
   * @param newBranchId mints the ID of a new branch
   */
  static HistoryPlan decide(
      List<Message> messages, @Nullable Base base, Supplier<UUID> newBranchId) {
    int length = messages.size();
    if (length == 0) {
      return new None();
    }
    if (base == null) {
      return new Fork(newBranchId.get(), null, 0, length);
    }
    int stored = base.stored().size();
    int common = commonPrefix(messages, base.stored());
    if (common == length) {
      return new Reuse(base.branchId(), length);
    }
    if (common == stored && base.tip() == stored) {
      return new Append(base.branchId(), stored, length);
    }
    return common == 0
        ? new Fork(newBranchId.get(), null, 0, length)
        : new Fork(newBranchId.get(), base.branchId(), common, length);
  }

  /**
   * How many leading messages the lists share. Sessions share message instances from turn to turn,
   * so the comparison is mostly by reference; equal messages that are not the same instance (read
   * back from the database, say) count as the same too.
   */
  @SuppressWarnings("ReferenceEquality") // a shortcut: histories share most of their messages
  private static int commonPrefix(List<Message> a, List<Message> b) {
    int limit = Math.min(a.size(), b.size());
    int i = 0;
    while (i < limit && (a.get(i) == b.get(i) || a.get(i).equals(b.get(i)))) {
      i++;
    }
    return i;
  }
}
