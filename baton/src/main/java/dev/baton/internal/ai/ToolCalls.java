package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolParams;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.ai.ToolResult;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.SchemaValidator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Runs the tool calls of one model turn for a generate loop, and resolves a resume. The calls of a
 * turn run in parallel on virtual threads (one call runs on the caller's thread); results come back
 * in request order whatever order the calls finish in.
 */
public final class ToolCalls {
  /** Set on the context of a restarted call, for its tool and hooks ({@code ToolContext}). */
  public static final ContextKey<JsonNode> RESTART =
      ContextKey.of("baton.tool.restart", JsonNode.class);

  /**
   * A call's result and, when it produced output, the tool message part that answers it. The part
   * is built by the thread that ran the call: the calls of one model response run in parallel, and
   * building ten thousand parts (each copying its output twice) afterwards would be serial.
   */
  record Answer(ToolResult result, @Nullable ToolResponsePart response) {
    static Answer of(ToolRequestPart request, ToolResult result) {
      ToolRequest call = request.toolRequest();
      ToolResponsePart response =
          result instanceof ToolResult.Output out
              ? new ToolResponsePart(ToolResponse.to(call, out), null)
              : null;
      return new Answer(result, response);
    }
  }

  private final Map<String, Tool<?, ?>> tools;
  private final BiFunction<ActionContext, ToolParams, ToolResult> chain;
  private final @Nullable BadToolCalls badCalls;

  /**
   * Runs calls to {@code tools} through {@code chain}.
   *
   * @param badCalls answers the model's bad calls instead of running them, or null to run every
   *     call
   */
  ToolCalls(
      Map<String, Tool<?, ?>> tools,
      BiFunction<ActionContext, ToolParams, ToolResult> chain,
      @Nullable BadToolCalls badCalls) {
    this.tools = tools;
    this.chain = chain;
    this.badCalls = badCalls;
  }

  /** The innermost link of every wrapTool chain: runs the tool itself. */
  static ToolResult runTool(ActionContext context, ToolParams params) {
    ToolRequest request = params.request().toolRequest();
    try {
      // A copy: the request the input comes from stays in the conversation, which is immutable.
      JsonNode input = request.input();
      Tool<?, ?> tool = params.tool();
      JsonNode output =
          tool.runJson(
              context,
              input == null ? Json.nodes().nullNode() : input,
              null,
              StreamCallback.discard());
      // A multipart tool answers {"output": …, "content": […]}, which the response carries apart.
      return tool.isMultipart()
          ? Json.convert(output, ToolResult.Output.class)
          : ToolResult.output(output);
    } catch (ToolInterrupt interrupt) {
      return new ToolResult.Interrupt(interrupt.data());
    }
  }

  /**
   * Runs the calls, in parallel when there are several; the bad calls among them are answered
   * instead, when this loop answers them.
   */
  List<Answer> run(ActionContext context, List<ToolRequestPart> requests) {
    Map<Integer, ToolResult> answers = badCalls == null ? Map.of() : badCalls.answer(requests);
    if (answers.isEmpty()) {
      return runAll(context, requests);
    }
    List<ToolRequestPart> good = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      if (!answers.containsKey(i)) {
        good.add(requests.get(i));
      }
    }
    Iterator<Answer> ran = runAll(context, good).iterator();
    List<Answer> results = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      results.add(answers.containsKey(i) ? Answer.of(requests.get(i), answers.get(i)) : ran.next());
    }
    return results;
  }

  private List<Answer> runAll(ActionContext context, List<ToolRequestPart> requests) {
    if (requests.isEmpty()) {
      return List.of();
    }
    if (requests.size() == 1) {
      return List.of(Answer.of(requests.get(0), call(context, requests.get(0))));
    }
    // A failing call cancels its siblings, but never the caller's own work. The error reported is
    // the first to happen, once every call has stopped.
    ActionContext shared = context.withChildCancellation();
    Cancellation siblings = shared.cancellation();
    AtomicReference<@Nullable RuntimeException> firstFailure = new AtomicReference<>();
    List<Future<Answer>> futures = new ArrayList<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (ToolRequestPart request : requests) {
        futures.add(
            executor.submit(
                () -> {
                  try {
                    return Answer.of(request, call(shared, request));
                  } catch (RuntimeException e) {
                    firstFailure.compareAndSet(null, e);
                    siblings.cancel();
                    throw e;
                  }
                }));
      }
    } finally {
      siblings.release();
    }
    RuntimeException failure = firstFailure.get();
    if (failure != null) {
      throw failure;
    }
    List<Answer> results = new ArrayList<>(futures.size());
    for (Future<Answer> future : futures) {
      results.add(future.resultNow());
    }
    return results;
  }

  private ToolResult call(ActionContext context, ToolRequestPart request) {
    Tool<?, ?> tool = tool(request.toolRequest().name());
    return chain.apply(context, new ToolParams(request, tool));
  }

  Tool<?, ?> tool(String name) {
    Tool<?, ?> tool = tools.get(name);
    if (tool == null) {
      throw BatonException.notFound(
          "the model called tool \"%s\", which this generate call does not offer", name);
    }
    return tool;
  }

  /**
   * Answers every tool request of the last model message from a resume: a pending output saved when
   * a sibling interrupted, a response the caller supplied, or a restart that runs the tool again
   * with the caller's data.
   *
   * @return the revised model message (interrupts marked resolved) and the tool message
   */
  List<Message> resume(ActionContext context, Message model, Resume resume) {
    List<Part> revised = new ArrayList<>();
    List<Part> responses = new ArrayList<>();
    for (Part part : model.content()) {
      if (!(part instanceof ToolRequestPart request)) {
        revised.add(part);
        continue;
      }
      ToolRequest call = request.toolRequest();
      ToolResponsePart answer;
      JsonNode pending =
          request.metadata() == null ? null : request.metadata().get("pendingOutput");
      ToolResponsePart respond = find(resume.respond(), call);
      ToolRequestPart restart = findRestart(resume.restart(), call);
      if (pending != null) {
        // Marked as Genkit JS marks it: this answer was computed before the interrupt.
        answer =
            Part.toolResponse(call.name(), call.ref(), pending)
                .withMetadata(Metadata.with(null, "source", Json.nodes().stringNode("pending")));
      } else if (respond != null) {
        checkOutput(tool(call.name()), respond.toolResponse());
        answer = respond;
      } else if (restart != null) {
        answer = rerun(context, restart);
      } else {
        throw BatonException.invalidArgument(
            "unresolved tool request \"%s\" (ref: %s): resume it with a response or a restart",
            call.name(), call.ref());
      }
      responses.add(answer);
      revised.add(resolved(request));
    }
    // As in Genkit JS: {"resumed": <the resume's metadata>}, or {"resumed": true} without one.
    JsonNode resumed =
        resume.metadata() != null ? resume.metadata() : Json.nodes().booleanNode(true);
    var metadata = Metadata.with(null, "resumed", resumed);
    return List.of(
        model.withContent(revised), new Message(Role.TOOL, responses).withMetadata(metadata));
  }

  private ToolResponsePart rerun(ActionContext context, ToolRequestPart restart) {
    ToolRequest call = restart.toolRequest();
    // A restart without resume data still tells the tool it is a restart.
    JsonNode restartMetadata =
        restart.metadata() != null && Metadata.has(restart.metadata(), "resumed")
            ? restart.metadata()
            : Metadata.withFlag(restart.metadata(), "resumed");
    ActionContext restartContext = context.with(RESTART, restartMetadata);
    ToolResult result = chain.apply(restartContext, new ToolParams(restart, tool(call.name())));
    return switch (result) {
      case ToolResult.Output output -> new ToolResponsePart(ToolResponse.to(call, output), null);
      case ToolResult.Interrupt ignored ->
          throw BatonException.failedPrecondition(
              "One or more tools triggered an interrupt during a restarted execution.");
    };
  }

  private static ToolRequestPart resolved(ToolRequestPart request) {
    var metadata = request.metadata();
    if (metadata == null) {
      return request;
    }
    JsonNode interrupt = metadata.get("interrupt");
    metadata = Metadata.without(Metadata.without(metadata, "interrupt"), "pendingOutput");
    if (interrupt != null) {
      metadata = Metadata.with(metadata, "resolvedInterrupt", interrupt);
    }
    return request.withMetadata(metadata);
  }

  private static void checkOutput(Tool<?, ?> tool, ToolResponse response) {
    JsonNode schema = tool.definition().outputSchema();
    if (schema != null && response.output() != null) {
      SchemaValidator.compile(schema)
          .validate(response.output(), "resume.respond output for tool \"" + tool.name() + "\"");
    }
  }

  private static @Nullable ToolResponsePart find(List<ToolResponsePart> parts, ToolRequest call) {
    for (ToolResponsePart part : parts) {
      ToolResponse r = part.toolResponse();
      if (r.name().equals(call.name()) && Objects.equals(r.ref(), call.ref())) {
        return part;
      }
    }
    return null;
  }

  private static @Nullable ToolRequestPart findRestart(
      List<ToolRequestPart> parts, ToolRequest call) {
    for (ToolRequestPart part : parts) {
      ToolRequest r = part.toolRequest();
      if (r.name().equals(call.name()) && Objects.equals(r.ref(), call.ref())) {
        return part;
      }
    }
    return null;
  }
}
