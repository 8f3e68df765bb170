package dev.baton.internal.agent;

import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.internal.ai.Messages;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How a background task joins a usage tree ({@link AgentUsage}) after the turn that launched it
 * ended: that turn recorded it as running with nothing spent, so the turn whose report first finds
 * it settled (a check, wait or abort of the Agents middleware) collects its settled tree. And how a
 * tree recorded on a message the conversation drops moves into the current turn's tree ({@link
 * #carry}). Stateless.
 */
public final class UsageTrees {
  private UsageTrees() {}

  /**
   * Adds a settled background task's tree, as its own session recorded it on its final message, to
   * the tree of the turn running under {@code context}, when the newest tree the conversation
   * recorded with a node in the task's session shows that node running. A task the turn launched or
   * collected already, one a recorded tree shows settled (it was counted there), and one no
   * recorded tree knows (a remote agent's, whose calls are not in the tree) add nothing; so does a
   * turn that grows no tree.
   *
   * @param history the conversation the turn's model call was sent, carrying the trees its earlier
   *     turns recorded
   * @param task the task's settled snapshot
   */
  public static void collect(ActionContext context, List<Message> history, SessionSnapshot task) {
    UsageNode turn = context.get(UsageNode.KEY).orElse(null);
    SessionState state = task.state();
    String sessionId = task.sessionId();
    if (turn == null || state == null || sessionId == null) {
      return;
    }
    AgentUsage settled = AgentUsage.of(Messages.lastModel(state.messages())).orElse(null);
    if (settled == null || settled.isRunning() || !sessionId.equals(settled.sessionId())) {
      return;
    }
    AgentUsage recorded = newestRecord(history, sessionId);
    if (recorded != null && recorded.isRunning()) {
      turn.collect(settled);
    }
  }

  /**
   * Adds a tree that an earlier turn recorded on a message the conversation then dropped (a message
   * the middleware made for itself) to the tree of the turn running under {@code context}, as a
   * child, so that the calls it counted are still in one recorded tree. A turn that grows no tree
   * adds nothing.
   *
   * @param recorded the tree the dropped message carried
   */
  public static void carry(ActionContext context, AgentUsage recorded) {
    context.get(UsageNode.KEY).ifPresent(turn -> turn.carry(recorded));
  }

  /**
   * The node in the session that the newest recorded tree holds (its last, if several), or null.
   */
  private static @Nullable AgentUsage newestRecord(List<Message> history, String sessionId) {
    for (int i = history.size() - 1; i >= 0; i--) {
      Message message = history.get(i);
      if (message.role() != Role.MODEL) {
        continue;
      }
      AgentUsage tree = AgentUsage.of(message).orElse(null);
      AgentUsage found = tree == null ? null : lastIn(tree, sessionId);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static @Nullable AgentUsage lastIn(AgentUsage tree, String sessionId) {
    List<AgentUsage> children = tree.children();
    for (int i = children.size() - 1; i >= 0; i--) {
      AgentUsage found = lastIn(children.get(i), sessionId);
      if (found != null) {
        return found;
      }
    }
    return sessionId.equals(tree.sessionId()) ? tree : null;
  }
}
