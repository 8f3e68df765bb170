package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentUsage;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One agent turn's node in a usage tree while the tree grows ({@link AgentUsage} is its value): the
 * calls reported for the turn (and their sums by model), the nodes of the agent invocations the
 * turn starts and of the background tasks it collects ({@link UsageTrees}), and the turn's finish
 * reason once it ends. The turn's context carries its node, which is how an invocation started
 * under the turn (a delegation, in the foreground or the background) finds its parent.
 *
 * <p>Thread-safe: calls arrive from parallel tool calls and from background work, children from the
 * invocations that start them. A node locks only itself, and its value is read child by child, so
 * no two locks are ever held at once.
 */
final class UsageNode {
  static final ContextKey<UsageNode> KEY = ContextKey.of("baton.usageNode", UsageNode.class);

  private final @Nullable UsageNode parent;
  private final String agent;
  private final String sessionId;
  private final List<GenerationUsage> calls = new ArrayList<>();
  private final Map<String, GenerationUsage> models = new LinkedHashMap<>();
  private final List<UsageNode> children = new ArrayList<>();
  private boolean settled;
  private @Nullable AgentFinishReason finishReason;
  // The settled tree a later turn collected or carried (see collect, carry), or null.
  private final @Nullable AgentUsage collected;

  private UsageNode(@Nullable UsageNode parent, String agent, String sessionId) {
    this.parent = parent;
    this.agent = agent;
    this.sessionId = sessionId;
    this.collected = null;
  }

  private UsageNode(UsageNode parent, AgentUsage collected) {
    this.parent = parent;
    this.agent = collected.agent();
    this.sessionId = String.valueOf(collected.sessionId());
    this.collected = collected;
    this.settled = true;
  }

  /**
   * The node of a turn starting under {@code context}: a child of the turn that started this
   * invocation when that turn grows a tree, a root when this agent collects its own, and null when
   * neither.
   */
  static @Nullable UsageNode open(
      ActionContext context, String agent, String sessionId, boolean collect) {
    UsageNode parent = context.get(KEY).orElse(null);
    if (parent == null && !collect) {
      return null;
    }
    UsageNode node = new UsageNode(parent, agent, sessionId);
    if (parent != null) {
      parent.adopt(node);
    }
    return node;
  }

  private synchronized void adopt(UsageNode child) {
    children.add(child);
  }

  /** Takes a node that never ran a turn out of its parent's tree. */
  void leave() {
    if (parent != null) {
      parent.disown(this);
    }
  }

  private synchronized void disown(UsageNode child) {
    children.remove(child);
  }

  /** A call of the model registered as {@code model} returned. */
  synchronized void add(String model, GenerationUsage usage) {
    calls.add(usage);
    models.merge(model, usage, GenerationUsage::plus);
  }

  /** The turn ended; a turn that reported no reason reads {@code unknown}. */
  synchronized void settle(@Nullable AgentFinishReason reason) {
    settled = true;
    finishReason = reason == null ? AgentFinishReason.UNKNOWN : reason;
  }

  /**
   * Adds a background task's settled tree as a child of this turn, unless an invocation in the
   * task's session is a child already (the task was launched by this turn, or collected by it).
   */
  synchronized void collect(AgentUsage settledTask) {
    for (UsageNode child : children) {
      if (child.sessionId.equals(settledTask.sessionId())) {
        return;
      }
    }
    children.add(new UsageNode(this, settledTask));
  }

  /**
   * Adds a tree recorded on a message the conversation no longer keeps as a child of this turn, so
   * that the calls it counted still count, once.
   */
  synchronized void carry(AgentUsage recorded) {
    children.add(new UsageNode(this, recorded));
  }

  /**
   * The tree as a turn's end records it. A child still running (a background task) is there with
   * nothing spent: what it spends joins the tree of the turn that collects it once it has settled
   * ({@link #collect}), so that each call counts in one turn's tree.
   */
  AgentUsage value() {
    if (collected != null) {
      return collected;
    }
    List<UsageNode> kids;
    AgentUsage own;
    synchronized (this) {
      if (!settled) {
        return AgentUsage.running(agent, sessionId);
      }
      kids = List.copyOf(children);
      own =
          AgentUsage.running(agent, sessionId)
              .withFinishReason(finishReason)
              .withCalls(calls)
              .withModels(models);
    }
    List<AgentUsage> values = new ArrayList<>(kids.size());
    for (UsageNode kid : kids) {
      values.add(kid.value());
    }
    return own.withChildren(values);
  }
}
