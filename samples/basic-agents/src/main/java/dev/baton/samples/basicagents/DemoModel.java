package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider: it plays each agent's
 * part in terms of the request it was given (it knows no facts, so it says what a real answer would
 * cover), reading the agent's system prompt and the conversation, and it calls the same tools a
 * real model would. Everything else (delegation, background tasks, artifacts, sessions, streaming)
 * is the real runtime. Public for the Spring Boot sample.
 */
public final class DemoModel {
  /** The model's name. */
  public static final String NAME = "demo/scripted";

  private static final String WAIT = "wait_for_background_tasks";

  /** A service's name, as incidents give it: checkout-api, payments-db, auth-service. */
  private static final Pattern SERVICE =
      Pattern.compile("\\b[a-z][a-z0-9]*-(?:api|app|cache|db|queue|service|svc|web|worker)\\b");

  /** Where a streamed answer is cut into chunks: after each space. */
  private static final Pattern WORDS = Pattern.compile("(?<= )");

  private DemoModel() {}

  /** Defines the model in {@code baton}, as {@link #NAME}. */
  public static void define(Baton baton) {
    baton.defineModel(
        NAME, ModelInfo.of("Scripted demo model", ModelInfo.Supports.TEXT_ONLY), DemoModel::answer);
  }

  /** The scripted answer, with usage estimated as a real model would report it. */
  private static ModelResponse answer(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    ModelResponse response = play(request, stream);
    int in = tokens(request.messages());
    int out = tokens(List.of(Objects.requireNonNull(response.message())));
    return response.withUsage(
        GenerationUsage.builder().inputTokens(in).outputTokens(out).totalTokens(in + out).build());
  }

  /** One token per four characters of the messages, as JSON: text and tool calls alike. */
  private static int tokens(List<Message> messages) {
    return messages.stream().mapToInt(m -> Json.toTree(m.content()).toString().length() / 4).sum();
  }

  private static ModelResponse play(
      ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String system =
        request.messages().get(0).role() == Role.SYSTEM ? request.messages().get(0).text() : "";
    Conversation talk = new Conversation(request);
    if (system.contains(Team.COORDINATOR_SYSTEM)) {
      return coordinator(talk, stream);
    }
    if (system.contains(Team.RESEARCHER_SYSTEM)) {
      return talk.fresh()
          ? write(
              "notes.md",
              "# Notes: "
                  + talk.task()
                  + "\n- What it is, in one sentence.\n- How it works, step by step.\n- What it"
                  + " costs and where it stops working.\n- (Scripted demo: set a provider key for"
                  + " real research.)")
          : text("My findings are in notes.md.");
    }
    if (system.contains(Team.CODER_SYSTEM)) {
      return talk.fresh()
          ? write(
              "Example.java",
              "// A sketch for: "
                  + talk.task()
                  + "\nfinal class Example {\n  public static void main(String[] args) {\n"
                  + "    System.out.println(\"Scripted demo: a real model writes the code.\");\n"
                  + "  }\n}\n")
          : text("The sketch is in Example.java.");
    }
    if (system.contains(IncidentRoom.COMMANDER_SYSTEM)) {
      return commander(talk, stream);
    }
    if (system.contains(Workshop.LEAD_SYSTEM)) {
      return lead(talk, stream);
    }
    if (system.contains(Workshop.CODER_SYSTEM)) {
      return fileCoder(talk);
    }
    if (system.contains(IncidentRoom.LOG_ANALYST_SYSTEM)) {
      return investigate(
          talk, "query_logs", "Failure signature for ", "No errors or warnings in the logs of ");
    }
    if (system.contains(IncidentRoom.DEPLOY_AUDITOR_SYSTEM)) {
      return investigate(talk, "recent_deploys", "Suspect deploy for ", "No recent deploys of ");
    }
    return text("(scripted demo) " + talk.task());
  }

  // ---- the coordinator ------------------------------------------------------------------------

  private static ModelResponse coordinator(
      Conversation talk, StreamCallback<ModelResponseChunk> stream) {
    if (talk.fresh()) {
      return calls(
          tool(
              "delegate_to_researcher",
              Json.object().put("task", "Find the key facts about: " + talk.task())),
          tool(
              "delegate_to_coder",
              Json.object().put("task", "Write a short example of: " + talk.task())));
    }
    List<String> artifacts = new ArrayList<>();
    String notes = "";
    for (ToolResponse response : talk.lastToolResponses()) {
      JsonNode output = response.output();
      if (output == null) {
        continue;
      }
      output.path("artifacts").forEach(a -> artifacts.add(a.path("name").asString()));
      if (response.name().equals("read_artifact")) {
        notes = output.path("content").asString();
      }
    }
    String notesFile =
        artifacts.stream().filter(name -> name.endsWith("notes.md")).findFirst().orElse(null);
    if (notesFile != null) {
      return calls(tool("read_artifact", Json.object().put("name", notesFile)));
    }
    return streamed(
        "Here is what the team found. The researcher's notes cover "
            + talk.task()
            + ": "
            + notes
                .lines()
                .filter(line -> line.startsWith("- ") && !line.contains("Scripted demo"))
                .map(line -> line.substring(2).toLowerCase(Locale.ROOT).replace(".", ""))
                .reduce((a, b) -> a + "; " + b)
                .orElse("nothing yet")
            + ". The coder's sketch is saved in the session as an artifact.",
        stream);
  }

  // ---- the lead and its file coder ------------------------------------------------------------

  /** The file the demo's coder writes, whatever the task. */
  static final String MAIN_FILE = "src/Main.java";

  /** Hands the request to the coder, then reports what the coder said. */
  private static ModelResponse lead(Conversation talk, StreamCallback<ModelResponseChunk> stream) {
    if (talk.fresh()) {
      return calls(
          tool(
              "delegate_to_file_coder",
              Json.object().put("task", "Write " + MAIN_FILE + ": " + talk.task())));
    }
    JsonNode output = talk.lastToolResponses().get(0).output();
    String reported = output == null ? "" : output.path("response").asString("");
    return streamed("The coder reports: " + reported, stream);
  }

  /**
   * Writes the one file, then says whether it was written: the tool's output when the user approved
   * the write, the user's refusal (a response in place of the call) when not.
   */
  private static ModelResponse fileCoder(Conversation talk) {
    if (talk.fresh()) {
      return calls(
          tool(
              Workshop.WRITE_FILE,
              Json.object()
                  .put("path", MAIN_FILE)
                  .put(
                      "content",
                      "// A sketch for: "
                          + talk.task()
                          + "\npublic class Main {\n  public static void main(String[] args) {\n"
                          + "    System.out.println(\"Scripted demo: a real model writes the"
                          + " code.\");\n  }\n}\n")));
    }
    JsonNode output = talk.lastToolResponses().get(0).output();
    String written = output == null ? "" : output.asString("");
    return written.startsWith("Wrote ")
        ? text(written)
        : text("I did not write " + MAIN_FILE + ": the user did not approve it.");
  }

  // ---- the incident commander -----------------------------------------------------------------

  /**
   * The commander's next step, every step of a turn about one incident ({@link
   * Conversation#incident}). A request has its service investigated in the background, unless the
   * findings since it was named are in: then a follow-up ("Any update?") is answered from them. A
   * request that names no service and follows none asks which.
   */
  private static ModelResponse commander(
      Conversation talk, StreamCallback<ModelResponseChunk> stream) {
    Incident incident = talk.incident();
    if (incident == null) {
      return streamed(
          "Which service is affected? Name it, as in: checkout-api is throwing 500s.", stream);
    }
    String service = incident.service();
    JsonNode reports = incident.reports();
    if (talk.fresh()) {
      return reports != null
          ? streamed(
              "Nothing new on "
                  + service
                  + " since the last update. The findings: "
                  + findings(reports),
              stream)
          : launch(service);
    }
    ToolResponse last = talk.lastToolResponses().get(0);
    JsonNode output = last.output() == null ? Json.object() : last.output();
    return switch (last.name()) {
      case "delegate_to_log_analyst", "delegate_to_deploy_auditor" ->
          calls(post("Investigating " + service + ": log scan and deploy audit started."));
      case "read_status_board" ->
          calls(post("Interim: " + findings(reports) + " Still waiting on the rest."));
      case WAIT ->
          output.path("timedOut").asBoolean()
              ? calls(tool("read_status_board", Json.object()))
              : calls(post("Resolved: " + findings(output)));
      case "post_status" -> {
        if (reports == null) {
          yield calls(wait(talk.taskIds(), 1));
        }
        if (reports.path("timedOut").asBoolean()) {
          yield calls(wait(talk.taskIds(), 0));
        }
        yield streamed("Incident summary for " + service + ": " + findings(reports), stream);
      }
      default -> text("Standing by.");
    };
  }

  /** Starts both investigations of a service, in the background. */
  private static ModelResponse launch(String service) {
    return calls(
        tool(
            "delegate_to_log_analyst",
            Json.object()
                .put("task", "Scan the logs of " + service)
                .put("background", true)
                .put("name", "logs")),
        tool(
            "delegate_to_deploy_auditor",
            Json.object()
                .put("task", "Audit the recent deploys of " + service)
                .put("background", true)
                .put("name", "deploys")));
  }

  /** What the investigations that completed have found, from a wait's reports. */
  private static String findings(@Nullable JsonNode reports) {
    List<String> found = new ArrayList<>();
    if (reports != null) {
      for (JsonNode report : reports.path("tasks")) {
        if (report.path("status").asString().equals("completed")) {
          found.add(report.path("response").asString());
        }
      }
    }
    return found.isEmpty() ? "no findings yet." : String.join("; ", found) + ".";
  }

  private static ModelResponse investigate(
      Conversation talk, String tool, String finding, String nothingFound) {
    String service = Objects.requireNonNullElse(service(talk.task()), "the service");
    if (talk.fresh()) {
      return calls(tool(tool, Json.object().put("service", service)));
    }
    JsonNode output = talk.lastToolResponses().get(0).output();
    JsonNode first = output == null ? Json.object() : output.path("lines").path(0);
    return text(
        first.isString() ? finding + service + ": " + first.asString() : nothingFound + service);
  }

  /** The first service a text names, or null. */
  private static @Nullable String service(String text) {
    Matcher matcher = SERVICE.matcher(text);
    return matcher.find() ? matcher.group() : null;
  }

  private static Part post(String message) {
    return tool("post_status", Json.object().put("message", message));
  }

  private static Part wait(List<String> taskIds, int timeoutSeconds) {
    ObjectNode input = Json.object().put("timeoutSeconds", timeoutSeconds);
    ArrayNode ids = input.putArray("taskIds");
    taskIds.forEach(ids::add);
    return tool(WAIT, input);
  }

  // ---- shared ---------------------------------------------------------------------------------

  /** What the scripted model reads from a request. */
  private record Conversation(ModelRequest request) {
    List<Message> messages() {
      return request.messages();
    }

    /** Whether the last message is the user's: the turn has just started. */
    boolean fresh() {
      return messages().get(messages().size() - 1).role() == Role.USER;
    }

    /** The text of the last user message: the request the agent was given. */
    String task() {
      for (int i = messages().size() - 1; i >= 0; i--) {
        Message message = messages().get(i);
        if (message.role() == Role.USER && !message.text().isBlank()) {
          return message.text().strip();
        }
      }
      return "";
    }

    List<ToolResponse> lastToolResponses() {
      return messages().get(messages().size() - 1).toolResponses().stream()
          .map(ToolResponsePart::toolResponse)
          .toList();
    }

    /** The messages since the request that started this turn. */
    List<Message> thisTurn() {
      for (int i = messages().size() - 1; i >= 0; i--) {
        if (messages().get(i).role() == Role.USER) {
          return messages().subList(i + 1, messages().size());
        }
      }
      return messages();
    }

    /**
     * The incident in hand, worked out from the requests: the service the newest one that names a
     * service names, and the messages since the first request about it that no request about
     * another service has followed. Null when no request names a service.
     */
    @Nullable Incident incident() {
      String service = null;
      int since = 0;
      for (int i = messages().size() - 1; i >= 0; i--) {
        Message message = messages().get(i);
        String named = message.role() == Role.USER ? service(message.text()) : null;
        if (named == null) {
          continue;
        }
        if (service != null && !named.equals(service)) {
          break;
        }
        service = named;
        since = i + 1;
      }
      return service == null
          ? null
          : new Incident(service, messages().subList(since, messages().size()));
    }

    /** The task IDs this turn's launches returned. */
    List<String> taskIds() {
      List<String> ids = new ArrayList<>();
      for (Message message : thisTurn()) {
        for (ToolResponsePart part : message.toolResponses()) {
          JsonNode output = part.toolResponse().output();
          if (part.toolResponse().name().startsWith("delegate_to_")
              && output != null
              && output.path("taskId").isString()) {
            ids.add(output.path("taskId").asString());
          }
        }
      }
      return ids;
    }
  }

  /**
   * An incident: the service it is about, and the messages since it was first named, from which
   * alone its findings are read.
   */
  private record Incident(String service, List<Message> since) {
    /** The reports of the newest wait for its investigations, or null when none was waited for. */
    @Nullable JsonNode reports() {
      for (Message message : since.reversed()) {
        for (ToolResponsePart part : message.toolResponses()) {
          if (part.toolResponse().name().equals(WAIT)) {
            return part.toolResponse().output();
          }
        }
      }
      return null;
    }
  }

  private static Part tool(String name, ObjectNode input) {
    return Part.toolRequest(name, name, input);
  }

  private static ModelResponse write(String name, String content) {
    return calls(tool("write_artifact", Json.object().put("name", name).put("content", content)));
  }

  private static ModelResponse calls(Part... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  private static ModelResponse streamed(String answer, StreamCallback<ModelResponseChunk> stream) {
    // A chunk per word, each with the space that follows it.
    WORDS.splitAsStream(answer).forEach(word -> stream.onChunk(ModelResponseChunk.text(word)));
    return text(answer);
  }

  private static ModelResponse text(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }
}
