package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The turn a row ends: the row, the row it continued (its parent, when the principal can read it),
 * and the messages the turn added (those past its parent's conversation, or all of them without a
 * parent). A row's conversation and usage are its session's up to it, so what the turn itself did
 * is the difference from its parent.
 */
record Turn(SessionSnapshot row, @Nullable SessionSnapshot parent, List<Message> added) {

  /** How many rows back a turn's start is looked for, past rows that hold no turn of their own. */
  private static final int MAX_HOPS = 10;

  /**
   * The turn of a row, reading its parent. A detached run that ran a turn before it detached chains
   * its row off that turn's row, with the same conversation: the turn it shows is that row's, so
   * its start is that row's parent.
   */
  static Turn of(AgentSnapshots snapshots, SessionSnapshot row) {
    List<Message> messages = messages(row);
    SessionSnapshot parent = parentOf(snapshots, row);
    for (int hop = 0;
        hop < MAX_HOPS && parent != null && messages(parent).size() == messages.size();
        hop++) {
      parent = parentOf(snapshots, parent);
    }
    if (parent == null) {
      return new Turn(row, null, messages);
    }
    int before = messages(parent).size();
    return new Turn(
        row,
        parent,
        before <= messages.size() ? messages.subList(before, messages.size()) : messages);
  }

  private static List<Message> messages(SessionSnapshot row) {
    return row.state() == null ? List.of() : row.state().messages();
  }

  private static @Nullable SessionSnapshot parentOf(AgentSnapshots snapshots, SessionSnapshot row) {
    if (row.parentId() == null) {
      return null;
    }
    String parentId = row.parentId();
    return ConsoleAgents.orNull(() -> snapshots.get(parentId));
  }

  /**
   * The usage tree the turn recorded on its final model message, or null when the agent collects
   * none or the turn added no model message (the conversation's last tree is then an earlier
   * turn's).
   */
  @Nullable AgentUsage tree() {
    return Views.usageTree(added);
  }

  /**
   * What the turn spent: its usage tree's total (its own model calls and those of the agents it ran
   * in this process), or, without a tree, its own model calls: its session's usage less its
   * parent's. Null when the row records no usage.
   */
  @Nullable GenerationUsage spend() {
    AgentUsage tree = tree();
    if (tree != null) {
      return tree.total();
    }
    GenerationUsage usage = row.state() == null ? null : row.state().usage();
    GenerationUsage before =
        parent == null || parent.state() == null ? null : parent.state().usage();
    if (usage == null || before == null) {
      return usage;
    }
    return GenerationUsage.builder()
        .inputTokens(Views.orZero(usage.inputTokens()) - Views.orZero(before.inputTokens()))
        .outputTokens(Views.orZero(usage.outputTokens()) - Views.orZero(before.outputTokens()))
        .totalTokens(Views.totalTokens(usage) - Views.totalTokens(before))
        .build();
  }
}
