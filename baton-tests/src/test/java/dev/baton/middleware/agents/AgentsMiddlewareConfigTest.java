package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentRef;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.middleware.BundledMiddleware;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * How the {@link Agents} middleware is configured and presented to the model: the sub-agents block,
 * tool names and prefixes, rejected configurations and collisions, and the experimental plugin that
 * makes it usable by name.
 */
class AgentsMiddlewareConfigTest extends AgentsMiddlewareTestSupport {
  @Test
  void theSubAgentsBlockListsEveryToolWithItsBestDescription() {
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder().model("orch").build(),
        AgentOptions.builder().description("Searches the web for facts.").build());
    orchestratorModel.respondText("ok");
    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .system("Base system.")
            .prompt("hi")
            .use(
                Agents.builder()
                    .agents(
                        AgentRef.of("researcher"),
                        new AgentRef("coder", "Writes Go code."),
                        AgentRef.of("ghost"))
                    .build())
            .build());
    List<Part> system = orchestratorModel.lastRequest().messages().get(0).content();
    assertThat(((TextPart) system.get(0)).text()).isEqualTo("Base system.");
    assertThat(((TextPart) system.get(1)).text())
        .isEqualTo(
            "<sub-agents>\n"
                + "You can delegate tasks to specialized sub-agents using their delegation tools:\n"
                + "  - delegate_to_researcher: Searches the web for facts.\n"
                + "  - delegate_to_coder: Writes Go code.\n"
                + "  - delegate_to_ghost: No description available.\n"
                + "\n"
                + "When a task is better handled by a specialized agent, delegate it using the appropriate tool."
                + " Provide a clear, self-contained task description.\n"
                // coder and ghost are not defined yet and may be server-managed: tasks can
                // continue.
                + "A task that failed, was aborted or stopped reporting progress can be continued"
                + " with continue_task, from the progress it saved; instructions steer the retry."
                + " A completed task takes follow-up instructions there too, in the sub-agent's"
                + " own session.\n"
                + "</sub-agents>");
    assertThat(Metadata.isTrue(system.get(1).metadata(), "agents-instructions")).isTrue();
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name, ToolDefinition::description)
        .startsWith(
            tuple("delegate_to_researcher", "Delegates a task to the \"researcher\" sub-agent."),
            tuple("delegate_to_coder", "Writes Go code."),
            tuple("delegate_to_ghost", "Delegates a task to the \"ghost\" sub-agent."));
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .as("agents that are unknown here may be server-managed, so their tasks may be continued")
        .endsWith("continue_task");
    JsonNode schema = orchestratorModel.lastRequest().tools().get(0).inputSchema();
    assertThat(schema.path("properties").path("task").path("description").asString())
        .isEqualTo("A clear, self-contained description of the task to delegate.");
    assertThat(schema.path("required").toString()).isEqualTo("[\"task\"]");
  }

  @Test
  void theBlockAndToolsFollowAnAgentDefinedAfterTheFirstCall() {
    Agents agents = Agents.builder().agents(AgentRef.of("late")).build();
    GenerateOptions call =
        GenerateOptions.builder()
            .model("orch")
            .system("Base system.")
            .prompt("hi")
            .use(agents)
            .build();
    orchestratorModel.respondText("ok");
    baton.generate(call);
    assertThat(systemText(orchestratorModel.lastRequest()))
        .contains("  - delegate_to_late: No description available.\n");
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .containsExactly("delegate_to_late", "continue_task");

    // Built once per configuration, the tools and the block still follow the registry.
    baton.defineAgent(
        "late",
        InlinePrompt.builder().model("orch").build(),
        AgentOptions.builder().description("Arrives late.").build());
    orchestratorModel.respondText("ok");
    baton.generate(call);
    assertThat(systemText(orchestratorModel.lastRequest()))
        .contains("  - delegate_to_late: Arrives late.\n");
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .as("a client-managed agent leaves no task to continue")
        .containsExactly("delegate_to_late");
  }

  @Test
  void badConfigurationsAreRejected() {
    assertThatThrownBy(() -> Agents.builder().build().newHooks(baton.context()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage("agents middleware requires at least one agent in the \"agents\" option");
    assertThatThrownBy(
            () -> Agents.builder().agents(AgentRef.of("")).build().newHooks(baton.context()))
        .hasMessage("agents middleware: every agent reference must have a name");
    assertThatThrownBy(
            () -> Agents.builder().agentNames("a", "a").build().newHooks(baton.context()))
        .hasMessage(
            "agents middleware: tool name \"delegate_to_a\" for agent \"a\" collides with agent"
                + " \"a\"; use a different ToolPrefix or agent name");
  }

  @Test
  void delegationToolsThatCollideWithOtherToolsFailTheCall() {
    Agents first = Agents.builder().agentNames("researcher").build();
    Agents second = Agents.builder().agentNames("researcher").build();
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder().model("orch").prompt("x").use(first, second).build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage(
            "tool \"delegate_to_researcher\" is contributed by middleware but already declared elsewhere");
  }

  @Test
  void theExperimentalPluginMakesAgentsAndArtifactsUsableByName() {
    Baton withPlugin = Baton.builder().experimental().build();
    Middleware agents =
        MiddlewareDescriptor.lookup(withPlugin.registry(), "genkit-middleware-exp/agents")
            .create(
                Json.parse(
                    "{\"agents\":[{\"name\":\"r\"}],\"toolPrefix\":\"\",\"artifactStrategy\":\"session\",\"maxDelegations\":3}"));
    assertThat(agents)
        .isEqualTo(
            Agents.builder()
                .agents(AgentRef.of("r"))
                .toolPrefix("")
                .maxDelegations(3)
                .artifactStrategy(ArtifactStrategy.SESSION)
                .build());
    assertThat(
            MiddlewareDescriptor.lookup(withPlugin.registry(), "genkit-middleware-exp/artifacts")
                .create(Json.parse("{\"readonly\":true}")))
        .isEqualTo(Artifacts.readOnly());
    assertThat(ArtifactStrategy.fromWireName("anything else")).isEqualTo(ArtifactStrategy.INLINE);
    for (var descriptor : BundledMiddleware.experimental()) {
      assertThat(descriptor.description()).isNotBlank();
      assertDescribed(descriptor.name(), descriptor.configSchema());
    }
  }

  @Test
  void prefixedAndBareToolsRouteToTheirAgentsAndARefDescriptionWins() {
    model("r-model").respondText("from r");
    model("s-model").respondText("from s");
    Agent r = subAgent("r", "r-model", AgentOptions.builder().description("Original.").build());
    Agent s2 = subAgent("s", "s-model", AgentOptions.DEFAULTS);
    orchestratorModel.respond(calls(delegate("ask_r", "1", "x")));
    orchestratorModel.respondText("ok");
    orchestratorModel.respond(calls(delegate("s", "2", "y")));
    orchestratorModel.respondText("ok");

    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .prompt("go")
            .use(
                Agents.builder()
                    .agents(r.ref().withDescription("Overridden."))
                    .toolPrefix("ask")
                    .build())
            .build());
    assertThat(toolOutputs(orchestratorModel).get("1").path("response").asString())
        .isEqualTo("from r");
    String system = systemText(orchestratorModel.lastRequest());
    assertThat(system).contains("  - ask_r: Overridden.").doesNotContain("Original.");

    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .prompt("go")
            .use(Agents.builder().agents(s2.ref()).toolPrefix("").build())
            .build());
    assertThat(toolOutputs(orchestratorModel).get("2").path("response").asString())
        .isEqualTo("from s");
  }

  @Test
  void twoInstancesWithDistinctPrefixesEachKeepTheirBlock() {
    orchestratorModel.respondText("ok");
    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .system("S")
            .prompt("go")
            .use(
                Agents.builder().agentNames("x").toolPrefix("a").build(),
                Agents.builder().agentNames("y").toolPrefix("b").build())
            .build());
    String system = systemText(orchestratorModel.lastRequest());
    assertThat(system).contains("  - a_x: ").contains("  - b_y: ");
  }

  /** Every property, at every depth, says what it is for. */
  private static void assertDescribed(String where, JsonNode schema) {
    schema
        .path("properties")
        .properties()
        .forEach(
            field -> {
              assertThat(field.getValue().path("description").asString(""))
                  .as(where + "." + field.getKey())
                  .isNotBlank();
              assertDescribed(where + "." + field.getKey(), field.getValue());
              assertDescribed(where + "." + field.getKey() + "[]", field.getValue().path("items"));
            });
  }
}
