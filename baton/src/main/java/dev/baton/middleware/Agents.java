package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.agent.AgentRef;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Defaulted;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Lets a model delegate work to sub-agents. For every configured agent the model gets a tool,
 * {@code delegate_to_<agent>} by default, whose description is the reference's description; a
 * {@code <sub-agents>} block listing the agents is added to the system prompt. Calling a tool runs
 * the sub-agent on the task and returns its answer as the tool's output.
 *
 * <p>Every failure becomes tool output, never an exception to the orchestrator: an unknown agent, a
 * failed run (naming the task that holds its progress when the agent is server-managed), an
 * interrupted run. Delegation nests: a sub-agent with its own Agents middleware delegates further.
 * Middleware and usage are per agent: this middleware wraps only the orchestrator's calls, and each
 * sub-agent records its model calls in its own session.
 *
 * <p>A delegation to a server-managed sub-agent (one with a session store) returns {@code taskId}
 * {@code <agent>:<snapshotId>} and the status the run settled in; a client-managed one settles
 * inline and gets the last {@link #historyLength} conversation messages as context.
 *
 * <p>Immutable; a value configures any number of generate calls, each with fresh counters.
 *
 * @param agents the sub-agents; at least one
 * @param toolPrefix the delegation tools' prefix: null means {@code delegate_to} ({@code
 *     delegate_to_<agent>}); the empty string means bare agent names
 * @param maxDelegations delegations allowed per generate call, parallel calls included; 0 (or less)
 *     is unlimited
 * @param historyLength recent user and model messages forwarded to a client-managed sub-agent; 0
 *     (or less) forwards only the task
 * @param artifactStrategy how sub-agent artifacts surface; null means {@link
 *     ArtifactStrategy#INLINE}
 */
public record Agents(
    @JsonPropertyDescription("Sub-agents available for delegation. At least one is required.")
        List<AgentRef> agents,
    @JsonPropertyDescription(
            "Prefix for delegation tool names. Unset means \"delegate_to\" (delegate_to_<agent>);"
                + " an empty string uses bare agent names.")
        @Nullable String toolPrefix,
    @JsonPropertyDescription(
            "Most sub-agent delegations per generate call, to stop runaway delegation loops. 0"
                + " means unlimited.")
        @Defaulted
        int maxDelegations,
    @JsonPropertyDescription(
            "Recent user and model messages forwarded to a client-managed sub-agent as context. 0"
                + " sends only the task.")
        @Defaulted
        int historyLength,
    @JsonPropertyDescription(
            "How sub-agent artifacts surface: \"inline\" (default) puts their content in the tool"
                + " result and merges them into the session; \"session\" only merges them.")
        @Nullable ArtifactStrategy artifactStrategy)
    implements Middleware {

  /** The prefix used when {@link #toolPrefix} is null. */
  public static final String DEFAULT_PREFIX = "delegate_to";

  public Agents {
    agents = agents == null ? List.of() : List.copyOf(agents);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return ExperimentalMiddleware.NAME + "/agents";
  }

  /**
   * Checks the configuration and builds this call's delegation tools.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for no agents, an unnamed or repeated agent, or
   *     tool names that collide
   */
  @Override
  public Hooks newHooks(ActionContext context) {
    if (agents.isEmpty()) {
      throw BatonException.invalidArgument(
          "agents middleware requires at least one agent in the \"agents\" option");
    }
    return new Delegation(this).hooks();
  }

  /** The delegation tool's name for an agent. */
  String toolName(String agent) {
    if (toolPrefix == null) {
      return DEFAULT_PREFIX + "_" + agent;
    }
    return toolPrefix.isEmpty() ? agent : toolPrefix + "_" + agent;
  }

  ArtifactStrategy strategy() {
    return artifactStrategy == null ? ArtifactStrategy.INLINE : artifactStrategy;
  }

  /** Builds an {@link Agents} configuration. Not thread-safe. */
  public static final class Builder {
    private final List<AgentRef> agents = new ArrayList<>();
    private @Nullable String toolPrefix;
    private int maxDelegations;
    private int historyLength;
    private @Nullable ArtifactStrategy artifactStrategy;

    private Builder() {}

    public Builder agents(AgentRef... refs) {
      agents.addAll(List.of(refs));
      return this;
    }

    /** Adds agents by name; their descriptions are discovered from the registry. */
    public Builder agentNames(String... names) {
      for (String name : names) {
        agents.add(AgentRef.of(name));
      }
      return this;
    }

    /** Null for {@code delegate_to}, "" for bare agent names. */
    public Builder toolPrefix(@Nullable String toolPrefix) {
      this.toolPrefix = toolPrefix;
      return this;
    }

    public Builder maxDelegations(int maxDelegations) {
      this.maxDelegations = maxDelegations;
      return this;
    }

    public Builder historyLength(int historyLength) {
      this.historyLength = historyLength;
      return this;
    }

    public Builder artifactStrategy(ArtifactStrategy artifactStrategy) {
      this.artifactStrategy = Objects.requireNonNull(artifactStrategy, "artifactStrategy");
      return this;
    }

    public Agents build() {
      return new Agents(agents, toolPrefix, maxDelegations, historyLength, artifactStrategy);
    }
  }
}
