package dev.baton.internal.middleware.agents;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.middleware.agents.InterruptForwarding.Held;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The answers a resume of the orchestrator gives to its forwarded interrupts, within one generate
 * call. The wrappers come from the conversation the call resumes (the orchestrator's session), the
 * answers from the call's resume: nothing survives from the turn that asked.
 *
 * <p>The generate loop applies a resume before any model call: a response stands in for the
 * delegation's output, and a restart of a held delegation answers a placeholder ({@link #holds})
 * instead of delegating again. Before the first model call, {@link #route} checks every answered
 * sub-agent turn, so a bad answer changes nothing, then resumes each in its own session and puts
 * its result in place of the answer. A held check or wait asked a background task's question: that
 * task resumes in the background, and its launch result takes the answer's place. A retry of an
 * answer whose sub-agent already answered folds that answer instead of running the sub-agent again
 * ({@link InterruptForwarding#read}). Thread-safe.
 */
final class ForwardedAnswers {
  private static final Logger log = LoggerFactory.getLogger(ForwardedAnswers.class);

  /**
   * A held call the resume answers: with restart data, or with a response's output. A held check or
   * wait ({@code background}) asked for a background task, which resumes in the background.
   */
  private record Answered(
      ToolRequest call,
      JsonNode routing,
      @Nullable JsonNode restart,
      @Nullable JsonNode output,
      boolean background) {}

  private static final ForwardedAnswers NONE = new ForwardedAnswers(List.of());

  private final List<Answered> answered;
  // What the sub-agents answered, by call: computed once, applied to every attempt of the first
  // model call (a retrying middleware may call it again).
  private @Nullable Map<String, JsonNode> results;

  private ForwardedAnswers(List<Answered> answered) {
    this.answered = answered;
  }

  /** The forwarded interrupts the generate call's resume answers, when forwarding is on. */
  static ForwardedAnswers of(DelegationSetup setup, ActionContext context) {
    if (!setup.config().forwardInterrupts()) {
      return NONE;
    }
    GenerateOptions options = GenerateRun.of(context).map(GenerateRun::options).orElse(null);
    Resume resume = options == null ? null : options.resume();
    if (options == null || resume == null || resume.isEmpty()) {
      return NONE;
    }
    Message asked = lastModelMessage(options.messages());
    if (asked == null) {
      return NONE;
    }
    List<Answered> answered = new ArrayList<>();
    for (ToolRequestPart part : asked.toolRequests()) {
      ToolRequest call = part.toolRequest();
      JsonNode routing =
          InterruptForwarding.routing(
              part.metadata() == null ? null : part.metadata().get("interrupt"));
      if (routing == null || !setup.owns(call.name())) {
        continue;
      }
      boolean background = BackgroundTasks.reports(setup.config(), call.name());
      ToolRequestPart restart = restartOf(resume, call);
      ToolResponsePart respond = respondOf(resume, call);
      // As the generate loop reads a resume: a response wins over a restart of the same call.
      if (respond != null) {
        JsonNode output = respond.toolResponse().output();
        answered.add(
            new Answered(
                call,
                routing,
                null,
                output == null ? Json.nodes().nullNode() : output,
                background));
      } else if (restart != null) {
        JsonNode data = restart.metadata() == null ? null : restart.metadata().get("resumed");
        answered.add(
            new Answered(
                call,
                routing,
                data == null ? Json.nodes().booleanNode(true) : data,
                null,
                background));
      }
      // Unanswered: the generate loop refuses the resume before anything runs.
    }
    return answered.isEmpty() ? NONE : new ForwardedAnswers(List.copyOf(answered));
  }

  /** Whether the generate call answers forwarded interrupts. */
  boolean answering() {
    return !answered.isEmpty();
  }

  /** Whether a restarted call is a held delegation, check or wait, which {@link #route} answers. */
  boolean holds(ToolRequest call) {
    return answered.stream().anyMatch(a -> a.restart() != null && same(a.call(), call));
  }

  /**
   * Before the first model call of a resume: checks every answered sub-agent turn, then resumes
   * each with its answer and puts the result in the conversation as the delegation's output.
   *
   * @throws dev.baton.core.BatonException as {@link InterruptForwarding#read} does, before any
   *     sub-agent runs
   */
  GenerateParams route(ActionContext context, GenerateParams params, Delegation delegation) {
    if (answered.isEmpty() || params.iteration() != 0) {
      return params;
    }
    Map<String, JsonNode> outputs = resolve(context, delegation);
    return params
        .withHistory(answer(params.history(), outputs))
        .withRequest(params.request().withMessages(answer(params.request().messages(), outputs)));
  }

  private synchronized Map<String, JsonNode> resolve(ActionContext context, Delegation delegation) {
    if (results != null) {
      return results;
    }
    List<Held> held = new ArrayList<>();
    List<AnswerClaim> claims = new ArrayList<>();
    for (Answered a : answered) {
      AnswerClaim claim = AnswerClaim.of(context, a.call().ref(), a.restart(), a.output());
      claims.add(claim);
      held.add(
          InterruptForwarding.read(
              context, delegation.registry(), delegation.agentNames(), a.routing(), claim));
    }
    // Every turn is claimed before any runs: a claim another answer holds refuses the whole resume.
    // A turn an earlier attempt of the same answer resumed needs no claim: it is folded, not run.
    List<Held> turns = new ArrayList<>();
    try {
      for (int i = 0; i < answered.size(); i++) {
        Held turn = held.get(i);
        turns.add(turn.answeredBy() != null ? turn : turn.claim(context, claims.get(i)));
      }
    } catch (RuntimeException e) {
      turns.stream().filter(turn -> turn.answeredBy() == null).forEach(t -> t.release(context));
      throw e;
    }
    Map<String, JsonNode> outputs = new HashMap<>();
    try {
      for (int i = 0; i < answered.size(); i++) {
        outputs.put(
            key(answered.get(i).call()),
            answer(context, delegation, answered.get(i), turns.get(i)));
      }
    } finally {
      // A turn whose resume left its session where it was (refused, or failed before its turn
      // saved a row) is given back, so that a retry can answer it.
      turns.stream()
          .filter(turn -> turn.answeredBy() == null)
          .forEach(turn -> releaseIfUnanswered(context, turn));
    }
    results = Map.copyOf(outputs);
    return results;
  }

  /** Resumes one answered turn, or folds what an earlier attempt of the answer resumed it into. */
  private static JsonNode answer(
      ActionContext context, Delegation delegation, Answered a, Held turn) {
    // A delegation's label is on its call; a background task's on the routing of its report.
    JsonNode label =
        a.background()
            ? a.routing().get("name")
            : a.call().input() == null ? null : a.call().input().get("name");
    String name = label != null && label.isString() ? label.asString() : null;
    if (turn.answeredBy() != null) {
      return Json.toTree(
          a.background()
              ? delegation.answeredInBackground(turn, name)
              : delegation.answered(context, turn, name));
    }
    Resume resume = turn.answer(a.restart(), a.output());
    return Json.toTree(
        a.background()
            ? delegation.answerInBackground(context, turn, resume, name)
            : delegation.answer(context, turn, resume, name));
  }

  private static void releaseIfUnanswered(ActionContext context, Held turn) {
    try {
      turn.releaseIfUnanswered(context);
    } catch (RuntimeException e) {
      log.warn(
          "the claim on sub-agent task {} could not be given back; later answers are refused",
          TaskId.of(turn.agent().name(), turn.row().snapshotId()),
          e);
    }
  }

  /** The conversation with the delegations' outputs in its last tool message replaced. */
  private static List<Message> answer(List<Message> messages, Map<String, JsonNode> outputs) {
    int last = messages.size() - 1;
    if (last < 0 || messages.get(last).role() != Role.TOOL) {
      return messages;
    }
    Message tool = messages.get(last);
    List<Part> content = new ArrayList<>();
    for (Part part : tool.content()) {
      JsonNode output =
          part instanceof ToolResponsePart response
              ? outputs.get(key(response.toolResponse()))
              : null;
      if (output != null) {
        ToolResponse response = ((ToolResponsePart) part).toolResponse();
        content.add(Part.toolResponse(response.name(), response.ref(), output));
      } else {
        content.add(part);
      }
    }
    List<Message> answered = new ArrayList<>(messages.subList(0, last));
    answered.add(tool.withContent(content));
    return answered;
  }

  private static @Nullable Message lastModelMessage(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.MODEL) {
        return messages.get(i);
      }
    }
    return null;
  }

  private static @Nullable ToolRequestPart restartOf(Resume resume, ToolRequest call) {
    return resume.restart().stream()
        .filter(p -> same(p.toolRequest(), call))
        .findFirst()
        .orElse(null);
  }

  private static @Nullable ToolResponsePart respondOf(Resume resume, ToolRequest call) {
    return resume.respond().stream()
        .filter(
            p ->
                p.toolResponse().name().equals(call.name())
                    && Objects.equals(p.toolResponse().ref(), call.ref()))
        .findFirst()
        .orElse(null);
  }

  private static boolean same(ToolRequest a, ToolRequest b) {
    return a.name().equals(b.name()) && Objects.equals(a.ref(), b.ref());
  }

  private static String key(ToolRequest call) {
    return call.name() + "\u0000" + call.ref();
  }

  private static String key(ToolResponse response) {
    return response.name() + "\u0000" + response.ref();
  }
}
