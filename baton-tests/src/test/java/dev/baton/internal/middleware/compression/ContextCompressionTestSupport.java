package dev.baton.internal.middleware.compression;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.middleware.compression.ContextCompression;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the ContextCompression tests share: an instance with the experimental plugin, the model
 * under compression ({@code pm}), a summariser model, a {@code lookup} tool that answers {@code
 * "<q>:"} followed by {@code size} x's, and ways to write conversations and read views compactly.
 */
abstract class ContextCompressionTestSupport {
  final Baton baton = Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  final ProgrammableModel summarizer = ProgrammableModel.define(baton.registry(), "summarizer");
  final Tool<JsonNode, JsonNode> lookup =
      baton.defineJsonTool(
          "lookup",
          "Looks something up",
          null,
          null,
          (ctx, in) ->
              Json.nodes()
                  .stringNode(in.path("q").asString() + ":" + "x".repeat(in.path("size").asInt())));

  static ContextCompression.Builder compression() {
    return ContextCompression.builder();
  }

  /** A generate call on {@code pm} over a prior conversation, with one more user turn. */
  GenerateResponse generate(List<Message> history, String prompt, ContextCompression compression) {
    return baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(history)
            .prompt(prompt)
            .tools(lookup)
            .use(compression)
            .build());
  }

  /** A model message calling {@code lookup} with {@code {"q": q}}. */
  static Message call(String ref, String q) {
    return call(ref, Json.object().put("q", q));
  }

  /** A model message calling {@code lookup} with an input. */
  static Message call(String ref, JsonNode input) {
    return new Message(Role.MODEL, List.of(Part.toolRequest("lookup", ref, input)));
  }

  /** The tool message answering {@link #call}. */
  static Message result(String ref, String output) {
    return new Message(
        Role.TOOL, List.of(Part.toolResponse("lookup", ref, Json.nodes().stringNode(output))));
  }

  /** The model's answer calling {@code lookup} for {@code size} characters. */
  static ModelResponse callsLookup(String ref, String q, int size) {
    return ModelResponse.of(
        new Message(
            Role.MODEL,
            List.of(Part.toolRequest("lookup", ref, Json.object().put("q", q).put("size", size)))),
        FinishReason.STOP);
  }

  /** The model's answer, reporting {@code inputTokens}. */
  static ModelResponse reporting(ModelResponse response, int inputTokens) {
    return response.withUsage(GenerationUsage.builder().inputTokens(inputTokens).build());
  }

  /** {@code pairs} user and model messages: u1, m1, u2, m2, ... */
  static List<Message> chat(int pairs) {
    List<Message> messages = new ArrayList<>();
    for (int i = 1; i <= pairs; i++) {
      messages.add(Message.user("u" + i));
      messages.add(Message.model("m" + i));
    }
    return messages;
  }

  @SafeVarargs
  static List<Message> concat(List<Message>... parts) {
    List<Message> all = new ArrayList<>();
    for (List<Message> part : parts) {
      all.addAll(part);
    }
    return all;
  }

  /**
   * A message in a few characters: {@code role:text} for text, {@code call(ref)} for a tool request
   * and {@code result(ref)=output} for a tool response, parts joined with {@code +}.
   */
  static String brief(Message message) {
    return message.content().stream()
        .map(
            part ->
                switch (part) {
                  case TextPart text -> message.role().name().toLowerCase() + ":" + text.text();
                  case ToolRequestPart request -> "call(" + request.toolRequest().ref() + ")";
                  case ToolResponsePart response ->
                      "result("
                          + response.toolResponse().ref()
                          + ")="
                          + outputText(response.toolResponse().output());
                  default -> part.toString();
                })
        .collect(Collectors.joining("+"));
  }

  static List<String> brief(List<Message> messages) {
    return messages.stream().map(ContextCompressionTestSupport::brief).toList();
  }

  private static String outputText(JsonNode output) {
    return output.isString() ? output.asString() : output.toString();
  }

  /** The {@code contextCompression} metadata of a message, or an empty object. */
  static JsonNode record(Message message) {
    ObjectNode metadata = message.metadata();
    return metadata == null ? Json.object() : metadata.path(CompressionMetadata.KEY);
  }

  /** The {@code contextCompression} metadata of a message's only tool response part. */
  static JsonNode partRecord(Message message) {
    return message.toolResponses().get(0).metadata() == null
        ? Json.object()
        : message.toolResponses().get(0).metadata().path(CompressionMetadata.KEY);
  }

  /** The index of the newest boundary in a history, or -1. */
  static int boundaryIndex(List<Message> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (record(history.get(i)).path("summary").isString()) {
        return i;
      }
    }
    return -1;
  }

  /** The text of the messages the model received on call {@code index}. */
  List<String> sent(int index) {
    return brief(model.requests().get(index).messages());
  }
}
