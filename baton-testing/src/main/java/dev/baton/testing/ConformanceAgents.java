package dev.baton.testing;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentFunction;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentRunner;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The agents Genkit's {@code agent.yaml} conformance suite drives, defined on a Baton instance with
 * the names, stores and behaviour the suite expects. Prompt agents call the model named {@code
 * programmableModel}; custom agents answer "done".
 *
 * <p>Stateless and thread-safe.
 */
public final class ConformanceAgents {
  private ConformanceAgents() {}

  /**
   * Defines every agent of the suite.
   *
   * @param baton an experimental instance that already has {@code programmableModel} and the {@link
   *     ConformanceTools}
   * @param stores makes a fresh session store for each server-managed agent
   * @return the agents by name
   */
  public static Map<String, Agent> define(Baton baton, Supplier<SessionStore> stores) {
    return Map.ofEntries(
        entry(baton.defineAgent("promptAgent", prompt().build())),
        entry(baton.defineAgent("promptAgentWithStore", prompt().build(), server(stores))),
        entry(baton.defineAgent("promptAgentWithTools", prompt().toolNames("testTool").build())),
        entry(
            baton.defineAgent(
                "promptAgentWithInterrupt",
                prompt().toolNames("interruptTool").build(),
                server(stores))),
        entry(
            baton.defineAgent(
                "promptAgentWithRestartTool",
                prompt().toolNames("restartTool").build(),
                server(stores))),
        entry(
            baton.defineCustomAgent(
                "customAgentBlocking", ConformanceAgents::blocking, server(stores))),
        entry(
            baton.defineCustomAgent(
                "customAgentFailing", ConformanceAgents::failing, server(stores))),
        entry(
            baton.defineCustomAgent(
                "customAgentWithArtifacts",
                each(
                    runner -> {
                      runner.sendArtifact(Artifact.text("doc1", "v1"));
                      runner.sendArtifact(Artifact.text("doc1", "v2"));
                      runner.sendArtifact(Artifact.text("doc2", "other"));
                    }),
                AgentOptions.DEFAULTS)),
        entry(
            baton.defineCustomAgent(
                "customAgentWithCustomState",
                each(ConformanceAgents::count),
                AgentOptions.DEFAULTS)),
        entry(
            baton.defineCustomAgent(
                "customAgentWithMultiCustomState",
                each(
                    runner -> {
                      runner
                          .session()
                          .updateCustom(
                              c -> Json.object().put("counter", 1).put("status", "working"));
                      runner.session().updateCustom(c -> object(c).put("counter", 2));
                      runner.session().updateCustom(c -> object(c).put("status", "done"));
                    }),
                AgentOptions.DEFAULTS)),
        entry(
            baton.defineCustomAgent(
                "customAgentWithArtifactsStore",
                each(
                    runner -> {
                      int n = runner.session().artifacts().size() + 1;
                      runner.sendArtifact(Artifact.text("doc" + n, "content" + n));
                    }),
                server(stores))),
        entry(
            baton.defineCustomAgent(
                "customAgentWithCustomStateStore",
                each(ConformanceAgents::count),
                server(stores))));
  }

  private static Map.Entry<String, Agent> entry(Agent agent) {
    return Map.entry(agent.name(), agent);
  }

  private static InlinePrompt.Builder prompt() {
    return InlinePrompt.builder().model("programmableModel");
  }

  private static AgentOptions server(Supplier<SessionStore> stores) {
    return AgentOptions.builder()
        .sessionStore(stores.get())
        .heartbeat(Duration.ofMillis(200), Duration.ofSeconds(5))
        .waitPollInterval(Duration.ofMillis(20))
        .build();
  }

  /** A custom agent that does {@code work} every turn, then answers "done". */
  private static AgentFunction each(Consumer<AgentRunner> work) {
    return runner -> {
      runner.run(
          (ctx, input) -> {
            work.accept(runner);
            runner.session().addMessage(Message.model("done"));
            return AgentFinishReason.STOP;
          });
      return runner.result();
    };
  }

  private static ObjectNode object(@Nullable JsonNode custom) {
    return custom instanceof ObjectNode object ? object : Json.object();
  }

  private static void count(AgentRunner runner) {
    runner
        .session()
        .updateCustom(
            c -> Json.object().put("counter", c == null ? 1 : c.path("counter").asInt() + 1));
  }

  /** Blocks every turn until the invocation is cancelled (by an abort, once detached). */
  private static dev.baton.agent.AgentResult blocking(AgentRunner runner) {
    runner.run(
        (ctx, input) -> {
          CountDownLatch cancelled = new CountDownLatch(1);
          try (var registration = ctx.cancellation().onCancel(cancelled::countDown)) {
            cancelled.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          ctx.cancellation().throwIfCancelled();
          return AgentFinishReason.STOP;
        });
    return runner.result();
  }

  private static dev.baton.agent.AgentResult failing(AgentRunner runner) {
    runner.run(
        (ctx, input) -> {
          throw BatonException.of(Status.INTERNAL, "intentional failure");
        });
    return runner.result();
  }
}
