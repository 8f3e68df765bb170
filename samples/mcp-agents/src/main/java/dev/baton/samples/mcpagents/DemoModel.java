package dev.baton.samples.mcpagents;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider key. As the folder
 * guide it does what a real model would with the filesystem server's tools: it lists the folder,
 * reads the file the question names (if any), and answers from what the tools returned; the tool
 * calls are real MCP calls. As the researcher it knows no facts, so it says what an answer would
 * cover.
 */
final class DemoModel {
  static final String NAME = "demo/scripted";

  private DemoModel() {}

  static void define(Baton baton) {
    baton.defineModel(
        NAME, ModelInfo.of("Scripted demo model", ModelInfo.Supports.TEXT_ONLY), DemoModel::answer);
  }

  private static ModelResponse answer(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    List<Message> messages = request.messages();
    String system = messages.get(0).role() == Role.SYSTEM ? messages.get(0).text() : "";
    String question = "";
    for (Message message : messages) {
      if (message.role() == Role.USER) {
        question = message.text();
      }
    }
    if (!system.startsWith(SampleAgents.FOLDER_SYSTEM)) {
      return reply("(demo) Findings on " + question + " The key facts fit in a few sentences.");
    }
    String folder = system.substring(SampleAgents.FOLDER_SYSTEM.length()).strip();
    // The answers to this question's tool calls: those after its user message.
    @Nullable String listing = null;
    @Nullable String read = null;
    for (Message message : messages.subList(lastUser(messages), messages.size())) {
      for (var part : message.toolResponses()) {
        ToolResponse response = part.toolResponse();
        if (response.name().endsWith("/list_directory")) {
          listing = outputText(response.output());
        } else if (response.name().endsWith("/read_text_file")) {
          read = outputText(response.output());
        }
      }
    }
    if (listing == null) {
      return call("fs/list_directory", folder);
    }
    String file = fileNamedIn(question, listing);
    if (file != null) {
      return read == null
          ? call("fs/read_text_file", folder + "/" + file)
          : reply("(demo) " + file + " says: " + firstLine(read));
    }
    List<String> entries = listing.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
    return reply(
        "(demo) The folder holds "
            + entries.size()
            + (entries.size() == 1 ? " entry: " : " entries: ")
            + String.join(", ", entries)
            + ". Name a file in your question and I will read it.");
  }

  private static int lastUser(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER) {
        return i;
      }
    }
    return 0;
  }

  /** The first file of the listing ({@code [FILE] name} lines) that the question names. */
  private static @Nullable String fileNamedIn(String question, String listing) {
    String asked = question.toLowerCase(Locale.ROOT);
    for (String line : listing.lines().toList()) {
      if (line.startsWith("[FILE] ")) {
        String name = line.substring("[FILE] ".length()).strip();
        if (asked.contains(name.toLowerCase(Locale.ROOT))) {
          return name;
        }
      }
    }
    return null;
  }

  /**
   * A tool's answer as text: the filesystem server's tools answer with structured content {@code
   * {"content": "…"}}, other tools with text.
   */
  private static String outputText(@Nullable JsonNode output) {
    if (output == null) {
      return "";
    }
    JsonNode content = output.get("content");
    if (content != null && content.isString()) {
      return content.stringValue();
    }
    return output.isString() ? output.stringValue() : output.toString();
  }

  private static String firstLine(String text) {
    return text.lines().map(String::strip).filter(s -> !s.isEmpty()).findFirst().orElse("(empty)");
  }

  private static ModelResponse call(String tool, String path) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.toolRequest(tool, tool, Json.object().put("path", path)));
    return ModelResponse.of(new Message(Role.MODEL, parts), FinishReason.STOP);
  }

  private static ModelResponse reply(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }
}
