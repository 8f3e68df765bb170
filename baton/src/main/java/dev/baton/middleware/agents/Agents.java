package dev.baton.middleware.agents;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.agent.AgentRef;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.middleware.agents.Delegation;
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
 * malformed call, a failed run (naming the task that holds its progress when the agent is
 * server-managed), an interrupted run (unless {@link #forwardInterrupts} forwards its interrupts to
 * the caller). Delegation nests: a sub-agent with its own Agents middleware delegates further.
 * Middleware and usage are per agent: this middleware wraps only the orchestrator's calls, and each
 * sub-agent records its model calls in its own session.
 *
 * <p>A delegation to a server-managed sub-agent (one with a session store) returns {@code taskId}
 * {@code <agent>:<snapshotId>} and the status the run settled in; a client-managed one settles
 * inline and gets the last {@link #historyLength} conversation messages as context.
 *
 * <p><b>Background work.</b> With {@link #async} every delegation tool also takes {@code
 * background}: the sub-agent detaches and the tool returns its task ID at once. Three shared tools
 * act on launched tasks: {@code check_background_tasks} reads their status, {@code
 * wait_for_background_tasks} waits until they settle (all, or the first), and {@code
 * abort_background_tasks} stops them, never blocking. {@code continue_task} (registered whenever
 * some sub-agent may be server-managed) continues a failed, aborted, expired or completed task. The
 * tools accept a task ID only when this generate call started the task, or when a delegation or
 * {@code continue_task} result in the request's history carries it: there is no task registry, so
 * an orchestrator rebuilt from scratch collects its tasks from its history alone. A sub-agent runs
 * in the background only when its store supports it; otherwise the launch is refused with a hint to
 * delegate synchronously.
 *
 * <p>Immutable; a value configures any number of generate calls, each with fresh counters.
 *
 * @param agents the sub-agents; at least one
 * @param toolPrefix the tools' prefix: null means {@code delegate_to} ({@code
 *     delegate_to_<agent>}); the empty string means bare agent names. An explicit, non-empty prefix
 *     also namespaces the shared tools ({@code research_check_background_tasks}), so two instances
 *     in one generate call need distinct explicit prefixes
 * @param maxDelegations delegations allowed per generate call, parallel calls, background launches
 *     and continuations included; 0 (or less) is unlimited
 * @param historyLength recent user and model messages forwarded to a client-managed sub-agent; 0
 *     (or less) forwards only the task
 * @param artifactStrategy how sub-agent artifacts surface; null means {@link
 *     ArtifactStrategy#INLINE}
 * @param async whether delegations may run in the background
 * @param maxWaitSeconds the longest one {@code wait_for_background_tasks} call blocks, whatever
 *     timeout the model asks for, zero ("until they settle") included; 0 means no bound
 * @param notifySettled Baton's extension, off by default: when a background task of the
 *     conversation settles between the orchestrator's turns, the next turn's request carries a
 *     short notice naming it and its status, once per task, so the model need not poll
 * @param forwardInterrupts Baton's extension, off by default: a server-managed sub-agent (local, or
 *     remote and declared server-managed) whose synchronous run ends on interrupts (a tool
 *     approval, a tool's own question) ends the orchestrator's turn interrupted too, with one
 *     interrupt per held sub-agent call, each wrapping the sub-agent's (see {@link #SUB_AGENT}).
 *     The caller answers each with the ordinary resume API on the orchestrator; the answers go into
 *     the sub-agent's session, its turn resumes there, and its result becomes the delegation's, or,
 *     when it asks again, the orchestrator's resumed turn ends interrupted on the new question.
 *     With {@link #async}, a background task that stops on interrupts reports {@code interrupted}:
 *     the check, wait or settle notice that finds it ends the orchestrator's turn with the same
 *     wrapper, and the answer resumes the task in the background under a fresh task ID in the same
 *     session. Off, or for another sub-agent, an interrupt is reported as text, a dead end
 */
public record Agents(
    @JsonPropertyDescription("Sub-agents available for delegation. At least one is required.")
        List<AgentRef> agents,
    @JsonPropertyDescription(
            "Prefix for delegation tool names. Unset means \"delegate_to\" (delegate_to_<agent>);"
                + " an empty string uses bare agent names. An explicit, non-empty prefix also"
                + " namespaces the shared background and continue tools.")
        @Nullable String toolPrefix,
    @JsonPropertyDescription(
            "Most sub-agent delegations per generate call, background launches and continuations"
                + " included, to stop runaway delegation loops. 0 means unlimited.")
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
        @Nullable ArtifactStrategy artifactStrategy,
    @JsonPropertyDescription(
            "Lets the orchestrator run delegations in the background and check, wait for, abort"
                + " and continue them.")
        @Defaulted
        boolean async,
    @JsonPropertyDescription(
            "The longest one wait for background tasks may block, in seconds, whatever timeout the"
                + " model asks for. 0 means no bound; negative values are rejected.")
        @Defaulted
        int maxWaitSeconds,
    @JsonPropertyDescription(
            "Tells the orchestrator's next turn when a background task of the conversation has"
                + " settled, once per task, so the model need not poll.")
        @Defaulted
        boolean notifySettled,
    @JsonPropertyDescription(
            "Lets a server-managed sub-agent's interrupts (a tool approval, a question) pause the"
                + " orchestrator's turn, to be answered through the orchestrator's resume.")
        @Defaulted
        boolean forwardInterrupts)
    implements Middleware {

  /** The prefix used when {@link #toolPrefix} is null. */
  public static final String DEFAULT_PREFIX = "delegate_to";

  /**
   * The key of a forwarded interrupt's data under which the sub-agent's interrupts ride: {@code
   * {"agent": …, "taskId": …, "interrupts": [<the held tool request part>]}}. The data's other
   * fields are the held call's own interrupt data, so a client that knows nothing of delegation
   * renders the sub-agent's question. A delegation whose sub-agent holds several calls is one
   * interrupted part per held call, with the ref {@code <delegation ref>/<held call ref>}.
   */
  public static final String SUB_AGENT = "subAgent";

  /**
   * @throws BatonException {@code INVALID_ARGUMENT} for a negative {@code maxWaitSeconds}
   */
  public Agents {
    agents = agents == null ? List.of() : List.copyOf(agents);
    if (maxWaitSeconds < 0) {
      throw BatonException.invalidArgument(
          "agents middleware: maxWaitSeconds must not be negative, got %d", maxWaitSeconds);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return "genkit-middleware-exp/agents";
  }

  /**
   * Checks the configuration and starts this call's delegation. The tools, their schemas and the
   * injected instructions are built once per configuration and instance, not per call.
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
    return Delegation.hooks(this, context);
  }

  /** Builds an {@link Agents} configuration. Not thread-safe. */
  public static final class Builder {
    private final List<AgentRef> agents = new ArrayList<>();
    private @Nullable String toolPrefix;
    private int maxDelegations;
    private int historyLength;
    private @Nullable ArtifactStrategy artifactStrategy;
    private boolean async;
    private int maxWaitSeconds;
    private boolean notifySettled;
    private boolean forwardInterrupts;

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

    /** Lets delegations run in the background, with the shared tools to collect them. */
    public Builder async(boolean async) {
      this.async = async;
      return this;
    }

    /** Bounds every wait for background tasks; 0 means no bound. */
    public Builder maxWaitSeconds(int maxWaitSeconds) {
      this.maxWaitSeconds = maxWaitSeconds;
      return this;
    }

    /** Tells the next turn when a background task has settled, once per task. */
    public Builder notifySettled(boolean notifySettled) {
      this.notifySettled = notifySettled;
      return this;
    }

    /**
     * Lets a server-managed sub-agent's interrupts (local, or remote and declared server-managed)
     * pause the orchestrator's turn, to be answered through its resume (see {@link
     * Agents#forwardInterrupts}).
     */
    public Builder forwardInterrupts(boolean forwardInterrupts) {
      this.forwardInterrupts = forwardInterrupts;
      return this;
    }

    /**
     * The middleware, with what this builder was given.
     *
     * @throws BatonException {@code INVALID_ARGUMENT} for a negative {@code maxWaitSeconds}
     */
    public Agents build() {
      return new Agents(
          agents,
          toolPrefix,
          maxDelegations,
          historyLength,
          artifactStrategy,
          async,
          maxWaitSeconds,
          notifySettled,
          forwardInterrupts);
    }
  }
}
