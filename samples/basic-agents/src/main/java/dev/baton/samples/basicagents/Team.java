package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionStore;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Middleware;
import dev.baton.ai.ToolResult;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.ArtifactStrategy;
import dev.baton.middleware.agents.Artifacts;
import java.util.function.Consumer;

/**
 * The agents of Genkit's multi-agent guide: a researcher and a coder that write their work as
 * artifacts, and a coordinator that delegates to them and reads the work back. Public, with one
 * method per agent, for the Spring Boot sample, which declares each as a bean.
 */
public final class Team {
  /** The coordinator's system prompt, which the demo model recognises it by. */
  public static final String COORDINATOR_SYSTEM =
      "Delegate to specialists, inspect their results, then answer the user.";

  /** The researcher's system prompt, which the demo model recognises it by. */
  public static final String RESEARCHER_SYSTEM =
      "Research the user request and write concise findings.";

  /** The coder's system prompt, which the demo model recognises it by. */
  public static final String CODER_SYSTEM =
      "Write clear code in the language the user asks for, Java unless they say otherwise.";

  private Team() {}

  /**
   * Defines the three agents and returns the coordinator, which keeps its sessions in {@code
   * store}.
   */
  static Agent define(Baton baton, String model, Consumer<String> log, SessionStore store) {
    return coordinator(baton, model, log, store, researcher(baton, model), coder(baton, model));
  }

  /** Defines the researcher, which saves its findings as the artifact {@code notes.md}. */
  public static Agent researcher(Baton baton, String model) {
    return baton.defineAgent(
        "researcher",
        InlinePrompt.builder()
            .model(model)
            .system(RESEARCHER_SYSTEM + " Save them with write_artifact as notes.md.")
            .use(Artifacts.readWrite())
            .build(),
        AgentOptions.builder()
            .description("Finds facts and produces sourced research notes.")
            .build());
  }

  /** Defines the coder, which saves its code as an artifact. */
  public static Agent coder(Baton baton, String model) {
    return baton.defineAgent(
        "coder",
        InlinePrompt.builder()
            .model(model)
            .system(CODER_SYSTEM + " Save the code with write_artifact.")
            .use(Artifacts.readWrite())
            .build(),
        AgentOptions.builder()
            .description("Writes, debugs, and explains code. Use for programming tasks.")
            .build());
  }

  /**
   * Defines the coordinator, which delegates to the researcher and the coder, keeps its sessions in
   * {@code store} and passes a line to {@code log} as each delegation starts and ends.
   */
  public static Agent coordinator(
      Baton baton,
      String model,
      Consumer<String> log,
      SessionStore store,
      Agent researcher,
      Agent coder) {
    return baton.defineAgent(
        "coordinator",
        InlinePrompt.builder()
            .model(model)
            .system(
                COORDINATOR_SYSTEM
                    + " Delegate in parallel when you can, read their artifacts with read_artifact, and keep your answer brief.")
            .use(
                delegationLog(log),
                Agents.builder()
                    .agents(researcher.ref(), coder.ref())
                    .historyLength(4)
                    .maxDelegations(5)
                    .artifactStrategy(ArtifactStrategy.SESSION)
                    .build(),
                Artifacts.readOnly())
            .maxTurns(8)
            .build(),
        // Each turn records what it spent, the delegations' calls included, for UsageReport.
        AgentOptions.builder().sessionStore(store).usageTree(true).build());
  }

  /**
   * Prints a line as each delegation starts and ends, with how it ended: a middleware around the
   * coordinator's tools.
   */
  static Middleware delegationLog(Consumer<String> log) {
    return Middleware.of(
        "delegation-log",
        context ->
            Hooks.builder()
                .wrapTool(
                    (ctx, params, next) -> {
                      String tool = params.tool().name();
                      if (!tool.startsWith(Agents.DEFAULT_PREFIX + "_")) {
                        return next.apply(ctx, params);
                      }
                      String agent = tool.substring(Agents.DEFAULT_PREFIX.length() + 1);
                      var input = params.request().toolRequest().input();
                      log.accept(
                          "  → "
                              + agent
                              + ": "
                              + (input == null ? "" : input.path("task").asString()));
                      ToolResult result = next.apply(ctx, params);
                      log.accept("  ← " + agent + " " + outcome(result));
                      return result;
                    })
                .build());
  }

  /** "finished", or what went wrong, from the delegation's result. */
  private static String outcome(ToolResult result) {
    if (!(result instanceof ToolResult.Output output)) {
      return "stopped for input";
    }
    String response = output.output().path("response").asString("");
    return response.startsWith("Error") || response.startsWith("Delegation limit")
        ? "did not finish: " + response
        : "finished";
  }
}
