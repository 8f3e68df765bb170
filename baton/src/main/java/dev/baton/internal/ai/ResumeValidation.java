package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Checks a resume against the conversation it resumes, so a client cannot forge tool calls: only
 * the tool requests of the most recent model message are pending, a respond must name one of them
 * (by name and ref), and a restart must also carry its original input unchanged (compared as JSON
 * values, so {@code 1} equals {@code 1.0}; when the restart replaces the input, {@code
 * metadata.replacedInput} must be the original).
 *
 * <p>Every violation is {@code INVALID_ARGUMENT}. Entries whose payload is missing are skipped.
 * Stateless and thread-safe.
 */
public final class ResumeValidation {
  private ResumeValidation() {}

  public static void validate(List<Message> history, @Nullable Resume resume) {
    if (resume == null) {
      return;
    }
    int pendingIndex = Messages.lastModelIndex(history);
    for (ToolResponsePart respond : resume.respond()) {
      if (respond == null) {
        continue;
      }
      ToolResponse r = respond.toolResponse();
      locate(history, pendingIndex, "respond", r.name(), r.ref());
    }
    for (ToolRequestPart restart : resume.restart()) {
      if (restart == null) {
        continue;
      }
      ToolRequest r = restart.toolRequest();
      ToolRequest original = locate(history, pendingIndex, "restart", r.name(), r.ref());
      JsonNode claimed =
          restart.metadata() != null && restart.metadata().has("replacedInput")
              ? restart.metadata().get("replacedInput")
              : r.input();
      if (!Json.jsonEquals(normalize(claimed), normalize(original.input()))) {
        throw BatonException.invalidArgument(
            "resume.restart for tool \"%s\" (ref: %s) has modified inputs that do not match the"
                + " original tool request in session history; restart inputs must exactly match"
                + " the interrupted tool request",
            r.name(), r.ref());
      }
    }
  }

  private static ToolRequest locate(
      List<Message> history, int pendingIndex, String kind, String name, @Nullable String ref) {
    if (pendingIndex >= 0) {
      ToolRequest pending = newestMatch(history.get(pendingIndex), name, ref);
      if (pending != null) {
        return pending;
      }
    }
    for (int i = pendingIndex - 1; i >= 0; i--) {
      if (history.get(i).role() == Role.MODEL && newestMatch(history.get(i), name, ref) != null) {
        throw BatonException.invalidArgument(
            "resume.%s references tool \"%s\" (ref: %s) from an earlier turn which is no longer"
                + " pending; only tool requests from the most recent model response can be"
                + " resumed",
            kind, name, ref);
      }
    }
    throw BatonException.invalidArgument(
        "resume.%s references tool \"%s\" (ref: %s) which was not found in session history",
        kind, name, ref);
  }

  private static @Nullable ToolRequest newestMatch(
      Message message, String name, @Nullable String ref) {
    List<ToolRequestPart> requests = message.toolRequests();
    for (int i = requests.size() - 1; i >= 0; i--) {
      ToolRequest request = requests.get(i).toolRequest();
      if (request.name().equals(name) && Objects.equals(request.ref(), ref)) {
        return request;
      }
    }
    return null;
  }

  private static @Nullable JsonNode normalize(@Nullable JsonNode input) {
    return input == null || input.isNull() || input.isMissingNode() ? null : input;
  }
}
