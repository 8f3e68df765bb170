package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentRef;
import dev.baton.agent.StateManagement;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolContext;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.middleware.agents.TaskMessages.Delegate;
import dev.baton.internal.middleware.agents.TaskMessages.DelegateAsync;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.ArtifactStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What one Agents configuration builds for an instance: its tools (schemas and validators
 * included), their names, and the {@code <sub-agents>} block. Built once per configuration and
 * rebuilt only after something is registered in the instance (see {@link DefaultRegistry#derived}),
 * since whether a sub-agent may be server-managed, and the descriptions the block shows, come from
 * the registry.
 *
 * <p>The tools are shared by every generate call of the configuration: each call finds its own
 * counters and tasks in the {@link Delegation} that its {@code wrapTool} hook puts on the tool's
 * context. Immutable and thread-safe.
 */
final class DelegationSetup {
  private final Agents config;
  // The instance's registry, not a generate call's child registry: sub-agents run against it, and
  // the child's middleware tools belong to the orchestrator alone.
  private final Registry registry;
  private final boolean continuable;
  // The delegation tools whose sub-agents forward their interrupts; empty with the option off.
  private final List<String> forwarding;
  private final Map<String, String> toolOwners = new LinkedHashMap<>();
  // The agent each delegation tool delegates to, by the tool's name.
  private final Map<String, String> delegationTools = new HashMap<>();
  private final List<Tool<?, ?>> tools = new ArrayList<>();
  private final Set<String> resultTools;
  private final List<String> agentNames;
  private final String marker;
  private final TextPart instructions;
  private final TaskResults results;

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} for an unnamed agent or colliding tool names
   */
  private DelegationSetup(Agents config, Registry registry) {
    this.config = config;
    this.registry = registry;
    List<String> names = new ArrayList<>();
    Set<String> taskTools = new HashSet<>();
    for (AgentRef ref : config.agents()) {
      if (ref.name() == null || ref.name().isEmpty()) {
        throw BatonException.invalidArgument(
            "agents middleware: every agent reference must have a name");
      }
      names.add(ref.name());
      String tool = toolName(config, ref.name());
      claim(tool, "agent \"" + ref.name() + "\"");
      delegationTools.put(tool, ref.name());
      taskTools.add(tool);
      tools.add(delegationTool(ref, tool));
    }
    this.agentNames = List.copyOf(names);
    this.continuable = config.agents().stream().anyMatch(this::mayBeServerManaged);
    this.forwarding =
        config.forwardInterrupts()
            ? config.agents().stream()
                .filter(this::canForward)
                .map(ref -> toolName(config, ref.name()))
                .toList()
            : List.of();
    if (continuable) {
      taskTools.add(sharedToolName(config, BackgroundTasks.CONTINUE));
    }
    if (config.forwardInterrupts() && config.async()) {
      // An answered question of a background task replaces the check or wait that asked it with
      // the launch of the resumed task, whose ID the conversation then carries.
      taskTools.add(sharedToolName(config, BackgroundTasks.CHECK));
      taskTools.add(sharedToolName(config, BackgroundTasks.WAIT));
    }
    this.resultTools = Set.copyOf(taskTools);
    for (Tool<?, ?> tool : BackgroundTasks.tools(config, continuable)) {
      claim(tool.name(), "the shared tool \"" + tool.name() + "\"");
      tools.add(tool);
    }
    this.marker = marker(config);
    this.instructions = SystemText.block(marker, buildInstructions());
    this.results = new TaskResults(config);
  }

  /** The delegation tool's name for an agent. */
  static String toolName(Agents config, String agent) {
    String prefix = config.toolPrefix();
    if (prefix == null) {
      return Agents.DEFAULT_PREFIX + "_" + agent;
    }
    return prefix.isEmpty() ? agent : prefix + "_" + agent;
  }

  /**
   * A shared tool's name: bare under the default or the empty prefix, prefixed under an explicit
   * one.
   */
  static String sharedToolName(Agents config, String tool) {
    String prefix = config.toolPrefix();
    return prefix == null || prefix.isEmpty() ? tool : prefix + "_" + tool;
  }

  static ArtifactStrategy strategy(Agents config) {
    ArtifactStrategy strategy = config.artifactStrategy();
    return strategy == null ? ArtifactStrategy.INLINE : strategy;
  }

  /**
   * The setup of a configuration for the instance a context belongs to.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for an unnamed agent or colliding tool names
   */
  static DelegationSetup of(Agents config, ActionContext context) {
    return DefaultRegistry.derived(
        context.registry(), config, root -> new DelegationSetup(config, root));
  }

  private void claim(String tool, String owner) {
    String previous = toolOwners.putIfAbsent(tool, owner);
    if (previous != null) {
      throw BatonException.invalidArgument(
          "agents middleware: tool name \"%s\" for %s collides with %s; use a different"
              + " ToolPrefix or agent name",
          tool, owner, previous);
    }
  }

  Agents config() {
    return config;
  }

  Registry registry() {
    return registry;
  }

  /** Whether some sub-agent may be server-managed, so that its tasks can be continued. */
  boolean continuable() {
    return continuable;
  }

  /** Whether the configuration has shared tools, which act on this call's background tasks. */
  boolean hasSharedTools() {
    return config.async() || continuable;
  }

  List<Tool<?, ?>> tools() {
    return tools;
  }

  /** Whether a tool is one of this configuration's. */
  boolean owns(String tool) {
    return toolOwners.containsKey(tool);
  }

  /** The agent a delegation tool delegates to, or null for any other tool. */
  @Nullable String delegatesTo(String tool) {
    return delegationTools.get(tool);
  }

  /** The names of the tools whose results carry task IDs. */
  Set<String> resultTools() {
    return resultTools;
  }

  /** The names of the configured sub-agents. */
  List<String> agentNames() {
    return agentNames;
  }

  String marker() {
    return marker;
  }

  /** The {@code <sub-agents>} block, as the system text it is injected as. */
  TextPart instructions() {
    return instructions;
  }

  TaskResults results() {
    return results;
  }

  /** Whether an agent may be server-managed: it says so, or its metadata is unknown. */
  private boolean mayBeServerManaged(AgentRef ref) {
    try {
      AgentMetadata metadata = AgentLookup.find(registry, ref.name()).metadata();
      return metadata == null || metadata.stateManagement() != StateManagement.CLIENT;
    } catch (BatonException unknown) {
      return true;
    }
  }

  /** Whether an agent forwards its interrupts: a server-managed one, local or remote. */
  private boolean canForward(AgentRef ref) {
    try {
      return InterruptForwarding.canForward(AgentLookup.find(registry, ref.name()));
    } catch (BatonException unknown) {
      return false;
    }
  }

  /**
   * The system-text marker: Genkit's for the usual single instance; an instance with an explicit
   * prefix gets its own, so that two instances in one call (which need distinct prefixes) each keep
   * their block.
   */
  private static String marker(Agents config) {
    String prefix = config.toolPrefix();
    return prefix == null || prefix.isEmpty()
        ? Delegation.MARKER
        : Delegation.MARKER + ":" + prefix;
  }

  private Tool<?, ?> delegationTool(AgentRef ref, String toolName) {
    String description =
        ref.description() != null && !ref.description().isEmpty()
            ? ref.description()
            : "Delegates a task to the \"" + ref.name() + "\" sub-agent.";
    String agent = ref.name();
    if (config.async()) {
      return delegationTool(
          toolName,
          description,
          DelegateAsync.class,
          (ctx, in) ->
              Delegation.current(ctx.context())
                  .delegate(
                      ctx.context(),
                      agent,
                      in.task(),
                      in.name(),
                      Boolean.TRUE.equals(in.background())));
    }
    return delegationTool(
        toolName,
        description,
        Delegate.class,
        (ctx, in) ->
            Delegation.current(ctx.context())
                .delegate(ctx.context(), agent, in.task(), in.name(), false));
  }

  /**
   * A delegation tool. With forwarded interrupts its output schema accepts any value: a caller's
   * response to a held delegation is the sub-agent's answer, which the generate loop checks against
   * this schema before the sub-agent's result replaces it.
   */
  private <I> Tool<?, ?> delegationTool(
      String toolName,
      String description,
      Class<I> input,
      BiFunction<ToolContext, I, Result> function) {
    if (config.forwardInterrupts()) {
      return Tool.create(
          toolName,
          description,
          input,
          JsonNode.class,
          (ctx, in) -> Json.toTree(function.apply(ctx, in)));
    }
    return Tool.create(toolName, description, input, Result.class, function);
  }

  /** The {@code <sub-agents>} block: each tool with the best description the registry offers. */
  private String buildInstructions() {
    StringBuilder text =
        new StringBuilder(
            "<sub-agents>\nYou can delegate tasks to specialized sub-agents using their delegation"
                + " tools:\n");
    for (AgentRef ref : config.agents()) {
      text.append("  - ")
          .append(toolName(config, ref.name()))
          .append(": ")
          .append(describe(ref))
          .append('\n');
    }
    text.append(
        "\nWhen a task is better handled by a specialized agent, delegate it using the"
            + " appropriate tool. Provide a clear, self-contained task description.\n");
    if (config.async()) {
      text.append(
              "\nDelegations can run in the background: set \"background\": true on a delegation"
                  + " tool call to get a taskId back immediately while the sub-agent keeps"
                  + " working. Continue with other work, then collect results with ")
          .append(sharedToolName(config, BackgroundTasks.CHECK))
          .append(" (returns current status without waiting) or ")
          .append(sharedToolName(config, BackgroundTasks.WAIT))
          .append(
              " (blocks until the tasks settle). Background tasks keep running across turns, and"
                  + " task IDs from earlier tool results stay valid: check them before delegating"
                  + " the same work again. Stop a task whose result you no longer need with ")
          .append(sharedToolName(config, BackgroundTasks.ABORT))
          .append(".\n");
    }
    if (!forwarding.isEmpty()) {
      text.append(
              "\nWhen one of these sub-agents needs the user's input (an approval, an answer),"
                  + " your turn usually pauses until the user answers, and the sub-agent goes on: ")
          .append(String.join(", ", forwarding))
          .append(
              ". Otherwise a sub-agent that needs input reports it as an error; give it a more"
                  + " self-contained task.\n");
    }
    if (continuable) {
      text.append(
              "A task that failed, was aborted or stopped reporting progress can be continued"
                  + " with ")
          .append(sharedToolName(config, BackgroundTasks.CONTINUE))
          .append(
              ", from the progress it saved; instructions steer the retry. A completed task"
                  + " takes follow-up instructions there too, in the sub-agent's own session.\n");
    }
    return text.append("</sub-agents>").toString();
  }

  private String describe(AgentRef ref) {
    if (ref.description() != null && !ref.description().isEmpty()) {
      return ref.description();
    }
    for (ActionType type : List.of(ActionType.AGENT, ActionType.EXECUTABLE_PROMPT)) {
      String found =
          registry
              .lookup(type, ref.name())
              // An agent's description is at hand; its descriptor would infer four schemas.
              .map(
                  a ->
                      a instanceof Agent agent ? agent.description() : a.descriptor().description())
              .orElse(null);
      if (found != null && !found.isEmpty()) {
        return found;
      }
    }
    return "No description available.";
  }
}
