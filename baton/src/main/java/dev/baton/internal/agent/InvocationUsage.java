package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentUsage;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.ai.Messages;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.ai.UsageListener;
import dev.baton.internal.ai.UsageListeners;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where an agent invocation's own model calls are counted: every call adds to the session's usage
 * and, while a turn that grows a usage tree runs, to that turn's node. It is the invocation's agent
 * listener ({@link UsageListeners#hearAgent}), so the calls of the agents it delegates to count in
 * their own sessions and nodes, never in this one's.
 *
 * <p>At a turn's end its node settles and the tree is recorded on the turn's final model message
 * ({@code metadata.usageTree}), which the turn-end snapshot then saves. Turns run one at a time;
 * calls may arrive from any thread.
 */
final class InvocationUsage implements UsageListener {
  private final LiveSession session;
  private final String agent;
  private final boolean collect;
  private final UsageListener telemetry;
  private volatile @Nullable UsageNode turn;
  // The first turn's node, opened as the invocation starts; taken by the first turn.
  private @Nullable UsageNode reserved;
  private @Nullable Message finalBefore;

  /**
   * @param context the invocation's context, whose turn (if any) is the parent of this one's
   * @param telemetry told of every call too, for the invocation's span and metrics
   */
  InvocationUsage(
      LiveSession session,
      String agent,
      boolean collect,
      ActionContext context,
      UsageListener telemetry) {
    this.session = session;
    this.agent = agent;
    this.collect = collect;
    this.telemetry = telemetry;
    // Opened now, on the caller's thread, so a background delegation is in its parent's tree from
    // the moment it is launched, before its worker starts the turn.
    this.reserved = UsageNode.open(context, agent, session.id(), collect);
  }

  /** The invocation's context, under which its calls reach this listener. */
  ActionContext install(ActionContext context) {
    return UsageListeners.hearAgent(context, this);
  }

  @Override
  public void onUsage(String model, GenerationUsage usage) {
    session.addUsage(usage);
    telemetry.onUsage(model, usage);
    UsageNode node = turn;
    if (node != null) {
      node.add(model, usage);
    }
  }

  /** Starts a turn; its context carries the turn's node when the turn grows a tree. */
  ActionContext startTurn(ActionContext context) {
    UsageNode node =
        reserved != null ? reserved : UsageNode.open(context, agent, session.id(), collect);
    reserved = null;
    turn = node;
    if (node == null) {
      return context;
    }
    finalBefore = Messages.lastModel(session.messages());
    return context.with(UsageNode.KEY, node);
  }

  /**
   * Ends the turn: its node settles, and its tree goes on the turn's final model message, unless
   * the turn left no model message of its own.
   */
  void endTurn(@Nullable AgentFinishReason reason) {
    UsageNode node = turn;
    turn = null;
    if (node == null) {
      return;
    }
    node.settle(reason);
    List<Message> messages = new ArrayList<>(session.messages());
    int last = Messages.lastModelIndex(messages);
    if (last < 0 || Objects.equals(messages.get(last), finalBefore)) {
      return;
    }
    Message message = messages.get(last);
    messages.set(
        last,
        message.withMetadata(
            Metadata.with(message.metadata(), AgentUsage.METADATA_KEY, Json.toTree(node.value()))));
    session.setMessages(messages);
  }

  /** The invocation ran its last turn: a first turn's node that never ran leaves the tree. */
  void close() {
    UsageNode unused = reserved;
    reserved = null;
    if (unused != null) {
      unused.leave();
    }
  }
}
