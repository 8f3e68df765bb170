package dev.baton.samples.basicagents;

import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The terminal's side of a turn that stopped for the user's approval: it asks about each held call
 * ("file_coder wants to write src/Main.java: approve? [y/n]") and answers with a resume, a restart
 * that approves the call ({@code toolApproved}, which {@link dev.baton.middleware.ToolApproval}
 * reads) or a response that refuses it. A sub-agent's question reaches the orchestrator forwarded
 * ({@link Agents#SUB_AGENT}): it is asked in the sub-agent's name, about the sub-agent's call, and
 * the answer on the orchestrator's call goes back to the sub-agent.
 */
final class Approvals {
  static final String REFUSED = "The user did not approve this call. Do not try it again.";

  private Approvals() {}

  /**
   * Asks about every call the stopped turn holds, read from its saved snapshot; returns the resume
   * that answers them all, or null when the input ends first.
   */
  static @Nullable Resume ask(BufferedReader lines, Console console, SessionSnapshot stopped)
      throws IOException {
    List<ToolRequestPart> restarts = new ArrayList<>();
    List<ToolResponsePart> refusals = new ArrayList<>();
    for (ToolRequestPart held : held(stopped)) {
      Boolean approved = approve(lines, console, question(held));
      if (approved == null) {
        return null;
      }
      var request = held.toolRequest();
      if (approved) {
        restarts.add(
            new ToolRequestPart(
                request, Json.object().set("resumed", Json.object().put("toolApproved", true))));
      } else {
        refusals.add(
            Part.toolResponse(request.name(), request.ref(), Json.nodes().stringNode(REFUSED)));
      }
    }
    return new Resume(refusals, restarts, null);
  }

  /** "file_coder wants to write src/Main.java", for a held call, forwarded or not. */
  static String question(ToolRequestPart held) {
    JsonNode interrupt = held.metadata() == null ? null : held.metadata().get("interrupt");
    JsonNode routing = interrupt == null ? null : interrupt.get(Agents.SUB_AGENT);
    String who = "the agent";
    JsonNode call = Json.toTree(held.toolRequest());
    if (routing != null) {
      who = routing.path("agent").asString();
      call = routing.path("interrupts").path(0).path("toolRequest");
    }
    String tool = call.path("name").asString();
    return tool.equals(Workshop.WRITE_FILE)
        ? who + " wants to write " + call.path("input").path("path").asString()
        : who + " wants to call " + tool;
  }

  /** Asks until the answer is yes or no; null at the end of input. */
  private static @Nullable Boolean approve(BufferedReader lines, Console console, String question)
      throws IOException {
    while (true) {
      String answer = console.ask(lines, question + ": approve? [y/n] ");
      if (answer == null) {
        return null;
      }
      switch (answer.strip().toLowerCase(Locale.ROOT)) {
        case "y", "yes" -> {
          return true;
        }
        case "n", "no" -> {
          return false;
        }
        default -> console.line("Please answer y or n.");
      }
    }
  }

  /** The calls the turn's last message holds for an answer. */
  private static List<ToolRequestPart> held(SessionSnapshot stopped) {
    List<Message> messages = stopped.state() == null ? List.of() : stopped.state().messages();
    if (messages.isEmpty()) {
      return List.of();
    }
    return messages.get(messages.size() - 1).toolRequests().stream()
        .filter(part -> part.metadata() != null && part.metadata().has("interrupt"))
        .toList();
  }
}
