package dev.baton.samples.agentsremote;

import dev.baton.Baton;
import dev.baton.a2a.A2aAgents;
import dev.baton.a2a.A2aHandler;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Middleware;
import dev.baton.ai.ToolResult;
import dev.baton.middleware.agents.Agents;
import dev.baton.server.BatonHandler;
import dev.baton.server.BatonServer;
import java.io.PrintStream;
import java.net.URI;
import tools.jackson.databind.JsonNode;

/**
 * Genkit's sample arrangement: a researcher served over HTTP, registered here with {@code
 * defineRemoteAgent} (Genkit's protocol) or {@code A2aAgents.define} (A2A), and an orchestrator
 * that delegates to it in the background.
 */
final class Orchestration {
  static final String RESEARCHER_SYSTEM =
      "Research the question you are given and answer in a few sentences.";
  static final String ORCHESTRATOR_SYSTEM =
      "Give each part of a question to the researcher in the background, then combine the"
          + " answers.";

  private Orchestration() {}

  /**
   * Serves a researcher of its own on a free loopback port, as a separate Baton instance would in
   * another process, and returns the server: over Genkit's protocol at {@code /agents/researcher},
   * and over A2A at {@code /a2a/researcher} (its card at {@code
   * /a2a/researcher/.well-known/agent-card.json}).
   */
  static BatonServer serveResearcher(Baton baton, String model) {
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder().model(model).system(RESEARCHER_SYSTEM).build(),
        AgentOptions.builder()
            .description("Researches one question and answers in a few sentences.")
            .sessionStore(InMemorySessionStore.create())
            .build());
    return BatonServer.start(
        "127.0.0.1",
        0,
        BatonHandler.builder(baton).agents("researcher").build(),
        A2aHandler.builder(baton).agents("researcher").build());
  }

  /** Registers the researcher served at {@code url} over Genkit's protocol. */
  static Agent remoteResearcher(Baton baton, URI url) {
    return baton.defineRemoteAgent(
        "researcher",
        url,
        RemoteAgentOptions.builder()
            .description("Researches one question and answers in a few sentences.")
            .stateManagement(StateManagement.SERVER)
            .abortable(true)
            .build());
  }

  /**
   * Registers the A2A agent whose card is at {@code cardUrl} as the researcher: its card says what
   * it does.
   */
  static Agent a2aResearcher(Baton baton, URI cardUrl) {
    return A2aAgents.define(baton, "researcher", cardUrl);
  }

  /** Defines the orchestrator over the researcher. */
  static Agent orchestrator(Baton baton, String model, Agent researcher, PrintStream out) {
    return baton.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model(model)
            .system(ORCHESTRATOR_SYSTEM)
            .use(taskLog(out), Agents.builder().agents(researcher.ref()).async(true).build())
            .maxTurns(10)
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  /** Prints a line as each background task starts and as the orchestrator collects them. */
  private static Middleware taskLog(PrintStream out) {
    return Middleware.of(
        "task-log",
        context ->
            Hooks.builder()
                .wrapTool(
                    (ctx, params, next) -> {
                      String tool = params.tool().name();
                      JsonNode input = params.request().toolRequest().input();
                      if (tool.equals("delegate_to_researcher") && input != null) {
                        line(
                            out,
                            "  -> researcher, in the background: "
                                + input.path("task").asString(""));
                      }
                      ToolResult result = next.apply(ctx, params);
                      if (result instanceof ToolResult.Output output) {
                        JsonNode value = output.output();
                        if (value.path("taskId").isString()) {
                          line(
                              out,
                              "  .. task "
                                  + value.path("taskId").stringValue()
                                  + " "
                                  + value.path("status").asString(""));
                        }
                        for (JsonNode task : value.path("tasks")) {
                          line(
                              out,
                              "  <- task "
                                  + task.path("taskId").asString("")
                                  + " "
                                  + task.path("status").asString(""));
                        }
                      }
                      return result;
                    })
                .build());
  }

  private static void line(PrintStream out, String text) {
    synchronized (out) {
      out.println(text);
    }
  }
}
