package dev.baton.samples.basicagents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.TurnEnd;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import java.util.List;
import java.util.Locale;

/**
 * Prints what a turn spent as a tree: the orchestrator's own model calls, then each agent it
 * delegated to, indented under it. The tree is the turn's {@link AgentUsage}, which an agent
 * defined with {@code usageTree(true)} records on the turn's final message; it is read back from
 * the turn's snapshot.
 */
final class UsageReport {
  private UsageReport() {}

  /** Prints the tree of the turn that just ended, if its snapshot records one. */
  static void print(Console console, Agent agent, TurnEnd turnEnd) {
    if (turnEnd.snapshotId() == null) {
      return;
    }
    SessionSnapshot row = agent.snapshots().get(turnEnd.snapshotId());
    List<Message> messages = row.state() == null ? List.of() : row.state().messages();
    if (messages.isEmpty()) {
      return;
    }
    AgentUsage.of(messages.get(messages.size() - 1)).ifPresent(tree -> print(console, tree, 0));
  }

  private static void print(Console console, AgentUsage node, int depth) {
    StringBuilder line =
        new StringBuilder("usage> ")
            .append("  ".repeat(depth))
            .append(node.agent())
            .append(": ")
            .append(node.calls().size())
            .append(node.calls().size() == 1 ? " call, " : " calls, ")
            .append(tokens(node.usage()));
    if (!node.children().isEmpty()) {
      line.append(" (").append(tokens(node.total())).append(" with its delegations)");
    }
    if (node.isRunning()) {
      line.append(", still running (what it spends shows in the turn that collects it)");
    }
    console.line(line.toString());
    node.children().forEach(child -> print(console, child, depth + 1));
  }

  /** The total tokens, or input plus output when a model reported no total. */
  private static String tokens(GenerationUsage usage) {
    Integer total = usage.totalTokens();
    if (total == null && (usage.inputTokens() != null || usage.outputTokens() != null)) {
      total =
          (usage.inputTokens() == null ? 0 : usage.inputTokens())
              + (usage.outputTokens() == null ? 0 : usage.outputTokens());
    }
    return total == null ? "no usage reported" : String.format(Locale.ROOT, "%,d tokens", total);
  }
}
