package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.agent.TurnResult;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ArtifactsMiddlewareTest {
  private final Baton baton = Baton.builder().experimental().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  private static ModelResponse call(String tool, String ref, JsonNode input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(tool, ref, input))), FinishReason.STOP);
  }

  private JsonNode lastToolOutput() {
    List<Message> messages = model.lastRequest().messages();
    return messages.get(messages.size() - 1).toolResponses().get(0).toolResponse().output();
  }

  @Test
  void readonlyOffersOnlyTheReadTool() {
    model.respondText("a");
    model.respondText("b");
    baton.generate(
        GenerateOptions.builder().model("pm").prompt("x").use(Artifacts.readOnly()).build());
    assertThat(model.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .containsExactly("read_artifact");
    baton.generate(
        GenerateOptions.builder().model("pm").prompt("x").use(Artifacts.readWrite()).build());
    assertThat(model.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .containsExactly("read_artifact", "write_artifact");
  }

  @Test
  void aModelWritesAnArtifactAndReadsItBack() {
    Agent builder =
        baton.defineAgent(
            "builder",
            InlinePrompt.builder().model("pm").system("Build.").use(Artifacts.readWrite()).build(),
            AgentOptions.DEFAULTS);
    model.respond(
        call(
            "write_artifact",
            "w",
            Json.object().put("name", "report.md").put("content", "hello world")));
    model.respond(call("read_artifact", "r", Json.object().put("name", "report.md")));
    model.respond(call("read_artifact", "m", Json.object().put("name", "missing.md")));
    model.respondText("done");

    AgentOutput output = builder.runText("make a report");

    List<Message> sent = model.lastRequest().messages();
    assertThat(sent.get(sent.size() - 5).toolResponses().get(0).toolResponse().output().toString())
        .isEqualTo("{\"status\":\"Artifact \\\"report.md\\\" saved successfully.\"}");
    assertThat(sent.get(sent.size() - 3).toolResponses().get(0).toolResponse().output().toString())
        .isEqualTo("{\"name\":\"report.md\",\"content\":\"hello world\",\"found\":true}");
    assertThat(lastToolOutput().toString())
        .isEqualTo(
            "{\"name\":\"missing.md\",\"content\":\"Artifact \\\"missing.md\\\" not found.\",\"found\":false}");
    assertThat(output.artifacts()).extracting(Artifact::name).containsExactly("report.md");
    String listing = ((TextPart) model.lastRequest().messages().get(0).content().get(1)).text();
    assertThat(listing)
        .isEqualTo(
            "<artifacts>\nThe following artifacts are available in the session. Use the read_artifact tool"
                + " to view their content.\n  - report.md (11 chars)\n</artifacts>");
  }

  @Test
  void theListingShowsArtifactsTheAgentAlreadyHas() {
    Agent agent =
        baton.defineCustomAgent(
            "notes",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    runner.sendArtifact(Artifact.text("notes.md", "ünïcödé"));
                    runner.sendArtifact(new Artifact(null, List.of(), null));
                    baton.generate(
                        ctx,
                        GenerateOptions.builder()
                            .model("pm")
                            .system("S")
                            .prompt("go")
                            .use(Artifacts.readOnly())
                            .build());
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    model.respondText("ok");
    agent.runText("start");
    assertThat(((TextPart) model.lastRequest().messages().get(0).content().get(1)).text())
        .isEqualTo(
            "<artifacts>\nThe following artifacts are available in the session. Use the read_artifact tool"
                + " to view their content.\n  - notes.md (7 chars)\n  - (unnamed)\n</artifacts>");
  }

  @Test
  void withoutASessionTheToolsSaySoAndTheListingIsEmpty() {
    model.respond(call("read_artifact", "r", Json.object().put("name", "x")));
    model.respond(call("write_artifact", "w", Json.object().put("name", "x").put("content", "y")));
    model.respondText("ok");
    baton.generate(
        GenerateOptions.builder().model("pm").prompt("x").use(Artifacts.readWrite()).build());
    List<Message> sent = model.lastRequest().messages();
    assertThat(sent.get(3).toolResponses().get(0).toolResponse().output().toString())
        .isEqualTo("{\"name\":\"x\",\"content\":\"Error: no active session.\",\"found\":false}");
    assertThat(lastToolOutput().toString()).isEqualTo("{\"status\":\"Error: no active session.\"}");
    assertThat(((TextPart) sent.get(0).content().get(0)).text())
        .isEqualTo(
            "<artifacts>\nNo artifacts are currently available in the session.\n</artifacts>");
    assertThat(sent.get(0).role()).isEqualTo(Role.SYSTEM);
  }
}
