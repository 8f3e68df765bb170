package dev.baton.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentRef;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.ModelRef;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.ArtifactStrategy;
import dev.baton.middleware.agents.Artifacts;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.compression.ContextCompression;
import dev.baton.testing.ProgrammableModel;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The four experimental middlewares configured by name, as the Developer UI or another runtime
 * configures them, from JSON written for Genkit: every field under the JSON name of Genkit Go's
 * struct tag. The JSON documents below use those names and nothing else.
 */
class GenkitJsonConfigTest {
  private final Baton baton = Baton.builder().experimental().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  private Middleware byName(String name, String config) {
    return MiddlewareDescriptor.lookup(baton.registry(), name).create(Json.parse(config));
  }

  private JsonNode properties(String name) {
    return MiddlewareDescriptor.lookup(baton.registry(), name).configSchema().path("properties");
  }

  @Test
  void agentsReadsGenkitsFieldNames() {
    Middleware agents =
        byName(
            "genkit-middleware-exp/agents",
            """
            {"agents": [{"name": "researcher", "description": "Finds facts."}, {"name": "coder"}],
             "toolPrefix": "ask", "maxDelegations": 5, "historyLength": 4,
             "artifactStrategy": "session", "async": true, "maxWaitSeconds": 30}
            """);

    assertThat(agents)
        .isEqualTo(
            Agents.builder()
                .agents(new AgentRef("researcher", "Finds facts."), AgentRef.of("coder"))
                .toolPrefix("ask")
                .maxDelegations(5)
                .historyLength(4)
                .artifactStrategy(ArtifactStrategy.SESSION)
                .async(true)
                .maxWaitSeconds(30)
                .build());
    JsonNode properties = properties("genkit-middleware-exp/agents");
    // notifySettled and forwardInterrupts are Baton's own, off by default.
    assertThat(properties.propertyNames())
        .containsExactlyInAnyOrder(
            "agents",
            "toolPrefix",
            "maxDelegations",
            "historyLength",
            "artifactStrategy",
            "async",
            "maxWaitSeconds",
            "notifySettled",
            "forwardInterrupts");
    assertThat(properties.path("agents").path("items").path("properties").propertyNames())
        .containsExactlyInAnyOrder("name", "description");
  }

  @Test
  void artifactsReadsGenkitsFieldNames() {
    assertThat(byName("genkit-middleware-exp/artifacts", "{\"readonly\": true}"))
        .isEqualTo(Artifacts.readOnly());
    assertThat(properties("genkit-middleware-exp/artifacts").propertyNames())
        .containsExactly("readonly");
  }

  @Test
  void budgetReadsGenkitsFieldNames() {
    Middleware budget =
        byName(
            "genkit-middleware-exp/budget",
            """
            {"limit": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3,
                       "thoughtsTokens": 4, "cachedContentTokens": 5, "inputCharacters": 6,
                       "outputCharacters": 7, "inputImages": 8, "outputImages": 9,
                       "inputVideos": 10, "outputVideos": 11, "inputAudioFiles": 12,
                       "outputAudioFiles": 13, "custom": {"cost": 0.5}},
             "scope": "run", "interrupt": true}
            """);

    assertThat(budget)
        .isEqualTo(
            Budget.perRun(
                    GenerationUsage.builder()
                        .inputTokens(1)
                        .outputTokens(2)
                        .totalTokens(3)
                        .thoughtsTokens(4)
                        .cachedContentTokens(5)
                        .inputCharacters(6)
                        .outputCharacters(7)
                        .inputImages(8)
                        .outputImages(9)
                        .inputVideos(10)
                        .outputVideos(11)
                        .inputAudioFiles(12)
                        .outputAudioFiles(13)
                        .custom(Map.of("cost", 0.5))
                        .build())
                .withInterrupt(true));
    JsonNode properties = properties(Budget.NAME);
    assertThat(properties.propertyNames()).containsExactlyInAnyOrder("limit", "scope", "interrupt");
    assertThat(properties.path("limit").path("properties").propertyNames())
        .containsExactlyInAnyOrder(
            "inputTokens",
            "outputTokens",
            "totalTokens",
            "thoughtsTokens",
            "cachedContentTokens",
            "inputCharacters",
            "outputCharacters",
            "inputImages",
            "outputImages",
            "inputVideos",
            "outputVideos",
            "inputAudioFiles",
            "outputAudioFiles",
            "custom");
  }

  @Test
  void contextCompressionReadsGenkitsFieldNames() {
    Middleware compression =
        byName(
            ContextCompression.NAME,
            """
            {"maxInputTokens": 80000, "maxMessages": 50, "preserveRecent": 6,
             "maxToolResponseChars": -1,
             "deduplicateToolResponses": {"matchBy": "name-only", "keepRecent": 2,
                                          "notice": "[dup]"},
             "toolResponses": {"maxChars": 2000, "preserveRecent": -1},
             "summarize": {"model": {"name": "summarizer", "config": {"temperature": 0}},
                           "preserveRecent": 3, "prompt": "Sum: {conversation}"},
             "skipSummarizationThreshold": 0.5, "truncationNotice": "[cut]",
             "noTruncationNotice": true, "replaceHistory": true}
            """);

    assertThat(compression)
        .isEqualTo(
            ContextCompression.builder()
                .maxInputTokens(80_000)
                .maxMessages(50)
                .preserveRecent(6)
                .maxToolResponseChars(-1)
                .dedupeToolResponses(
                    ContextCompression.Dedupe.byNameOnly().withKeepRecent(2).withNotice("[dup]"))
                .truncateToolResponses(
                    ContextCompression.ToolTruncation.maxChars(2000).withPreserveRecent(-1))
                .summarize(
                    ContextCompression.Summarizer.of(
                            new ModelRef("summarizer", Json.object().put("temperature", 0)))
                        .withPreserveRecent(3)
                        .withPrompt("Sum: {conversation}"))
                .skipSummarizationThreshold(0.5)
                .truncationNotice("[cut]")
                .noTruncationNotice(true)
                .replaceHistory(true)
                .build());
    JsonNode properties = properties(ContextCompression.NAME);
    assertThat(properties.propertyNames())
        .containsExactlyInAnyOrder(
            "maxInputTokens",
            "maxMessages",
            "preserveRecent",
            "maxToolResponseChars",
            "deduplicateToolResponses",
            "toolResponses",
            "summarize",
            "skipSummarizationThreshold",
            "truncationNotice",
            "noTruncationNotice",
            "replaceHistory");
    assertThat(properties.path("deduplicateToolResponses").path("properties").propertyNames())
        .containsExactlyInAnyOrder("matchBy", "keepRecent", "notice");
    assertThat(properties.path("toolResponses").path("properties").propertyNames())
        .containsExactlyInAnyOrder("maxChars", "preserveRecent");
    assertThat(properties.path("summarize").path("properties").propertyNames())
        .containsExactlyInAnyOrder("model", "preserveRecent", "prompt");
    assertThat(Json.toTree(compression).has("deduplicateToolResponses")).isTrue();
  }

  @Test
  void batonsFormerCompressionNamesAreRejected() {
    for (String former : new String[] {"dedupeToolResponses", "truncateToolResponses"}) {
      assertThatThrownBy(() -> byName(ContextCompression.NAME, "{\"" + former + "\": {}}"))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
          .hasMessage(
              "config of middleware \"genkit-middleware-exp/contextCompression\" has no field \""
                  + former
                  + "\"");
    }
  }

  @Test
  void aGenerateRequestWrittenForGenkitUsesAllFourByName() {
    ProgrammableModel researcherModel = ProgrammableModel.define(baton.registry(), "rm");
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder().model(researcherModel.name()).build(),
        AgentOptions.builder().build());
    model.respond(
        ModelResponse.of(Message.model("done"), FinishReason.STOP)
            .withUsage(GenerationUsage.builder().totalTokens(7).build()));
    String big = "x".repeat(400);
    JsonNode request =
        Json.parse(
            """
            {"model": "pm",
             "messages": [
               {"role": "user", "content": [{"text": "start"}]},
               {"role": "model", "content": [{"toolRequest":
                 {"name": "lookup", "ref": "r1", "input": {"q": "a"}}}]},
               {"role": "tool", "content": [{"toolResponse":
                 {"name": "lookup", "ref": "r1", "output": "%s"}}]},
               {"role": "model", "content": [{"toolRequest":
                 {"name": "lookup", "ref": "r2", "input": {"q": "a"}}}]},
               {"role": "tool", "content": [{"toolResponse":
                 {"name": "lookup", "ref": "r2", "output": "%s"}}]},
               {"role": "user", "content": [{"text": "go"}]}],
             "use": [
               {"name": "genkit-middleware-exp/agents",
                "config": {"agents": [{"name": "researcher", "description": "Finds facts."}],
                           "toolPrefix": "ask"}},
               {"name": "genkit-middleware-exp/artifacts", "config": {"readonly": true}},
               {"name": "genkit-middleware-exp/contextCompression",
                "config": {"maxInputTokens": 10, "deduplicateToolResponses": {},
                           "toolResponses": {"maxChars": 10, "preserveRecent": -1}}},
               {"name": "genkit-middleware-exp/budget",
                "config": {"limit": {"totalTokens": 1000}}}]}
            """
                .formatted(big, big));

    JsonNode output =
        baton
            .registry()
            .lookup("/util/generate")
            .orElseThrow()
            .runJson(baton.context(), request, StreamCallback.discard());

    assertThat(model.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .contains("ask_researcher", "read_artifact")
        .doesNotContain("write_artifact");
    var results =
        model.lastRequest().messages().stream()
            .flatMap(message -> message.toolResponses().stream())
            .map(part -> part.toolResponse().output().asString())
            .toList();
    assertThat(results)
        .containsExactly(
            ContextCompression.Dedupe.DEFAULT_NOTICE,
            "x".repeat(10) + "\n[Truncated: showing the first 10 of 400 characters.]");
    assertThat(output.path("message").path("metadata").path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 7}"));
  }
}
