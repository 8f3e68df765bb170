package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An orchestrator agent with the Agents middleware that delegates one task synchronously to a
 * sub-agent, then answers from its result: three model calls (orchestrator, sub-agent,
 * orchestrator). Both agents are client-managed, so no store is measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DelegationBenchmark {
  @Param({"off", "spans"})
  public String tracing;

  private Agent orchestrator;

  @Setup
  public void setUp() {
    defineAgents();
    // A benchmark of a delegation that failed would measure the wrong thing.
    checkDelegated(synchronousDelegation());
  }

  /** Defines the two agents; {@link Scenarios} times the first call, so it defines them alone. */
  void defineAgents() {
    Baton baton = Fixtures.baton(tracing);
    Fixtures.chatModel(baton, "worker-model");
    Agent worker =
        baton.defineAgent(
            "researcher",
            InlinePrompt.builder().model("worker-model").system("You research.").build(),
            AgentOptions.builder().description("Finds facts.").build());
    ModelResponse delegate =
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(
                    Part.toolRequest(
                        "delegate_to_researcher",
                        "call-1",
                        Json.object().put("task", "Find the capital of France.")))),
            FinishReason.STOP);
    ModelResponse answer =
        ModelResponse.of(Message.model("The capital of France is Paris."), FinishReason.STOP);
    baton.defineModel(
        "orchestrator-model",
        ModelInfo.full("orchestrator-model"),
        (ctx, request, stream) -> {
          Message last = request.messages().get(request.messages().size() - 1);
          return last.role() == Role.TOOL ? answer : delegate;
        });
    orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orchestrator-model")
                .system("You coordinate.")
                .use(Agents.builder().agents(worker.ref()).build())
                .build());
  }

  /** Fails unless {@code output} is the orchestrator's answer after a delegation that ran. */
  static void checkDelegated(AgentOutput output) {
    String toolOutput =
        output.state().messages().stream()
            .filter(m -> m.role() == Role.TOOL)
            .findFirst()
            .orElseThrow()
            .toolResponses()
            .get(0)
            .toolResponse()
            .output()
            .toString();
    if (output.isFailed() || !toolOutput.contains("Sure, here is a short answer.")) {
      throw new IllegalStateException("the delegation did not run: " + toolOutput);
    }
  }

  @Benchmark
  public AgentOutput synchronousDelegation() {
    return orchestrator.runText("What is the capital of France?");
  }
}
