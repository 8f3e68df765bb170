package dev.baton.internal.middleware.agents;

import dev.baton.agent.TurnContext;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.middleware.agents.InterruptForwarding.Answer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The claim an answer puts on a sub-agent's held turn before it resumes it ({@link
 * InterruptForwarding#CLAIM}): which answer took the turn. Besides its own ID it names the
 * orchestrator's snapshot the answer resumed, the orchestrator's call and a digest of the answer,
 * so that a retry of the very same answer (the orchestrator's resumed turn failed after the
 * sub-agent had answered) recognises the sub-agent's turn as its own and folds it instead of
 * running the sub-agent again.
 *
 * @param id this claim's own ID: a release gives back only the claim it took
 * @param call the orchestrator's call the answer is for
 * @param snapshot the orchestrator's snapshot the answer resumed; "" for a client-managed
 *     orchestrator, whose retries are not recognised
 * @param answer a digest of the caller's answers (each held call's restart data or response output)
 */
record AnswerClaim(String id, String call, String snapshot, String answer) {

  /**
   * A fresh claim for the answers a resume gives to one call's sub-agent turn.
   *
   * @param answers the answers, by the sub-agent's held call's ref ({@link
   *     InterruptForwarding#heldRef}), null for a call without one
   */
  static AnswerClaim of(
      ActionContext context, @Nullable String call, Map<@Nullable String, Answer> answers) {
    String snapshot = context.get(TurnContext.KEY).map(TurnContext::parentSnapshotId).orElse("");
    // By ref, in order, so that the digest does not depend on the order the resume lists them in.
    // A call without a ref digests as "": a turn cannot tell those two apart either.
    ObjectNode digested = Json.object();
    Map<String, Answer> byRef = new TreeMap<>();
    answers.forEach((ref, answer) -> byRef.put(ref == null ? "" : ref, answer));
    byRef.forEach(
        (ref, answer) -> {
          ObjectNode entry = digested.putObject(ref);
          if (answer.restart() != null) {
            entry.set("restart", answer.restart());
          } else {
            entry.set(
                "output", answer.output() == null ? Json.nodes().nullNode() : answer.output());
          }
        });
    return new AnswerClaim(RandomIds.uuid(), call == null ? "" : call, snapshot, digest(digested));
  }

  /** The claim stored on a held turn, or null when it is not one of ours. */
  static @Nullable AnswerClaim read(@Nullable JsonNode stored) {
    if (stored == null || !stored.isObject()) {
      return null;
    }
    return new AnswerClaim(
        stored.path("id").asString(""),
        stored.path("call").asString(""),
        stored.path("snapshot").asString(""),
        stored.path("answer").asString(""));
  }

  ObjectNode toJson() {
    return Json.object()
        .put("id", id)
        .put("call", call)
        .put("snapshot", snapshot)
        .put("answer", answer);
  }

  /**
   * Whether this claim was taken by an earlier attempt of the same answer: the same call of the
   * same orchestrator snapshot, answered the same way.
   */
  boolean sameAnswer(AnswerClaim other) {
    return !snapshot.isEmpty()
        && snapshot.equals(other.snapshot)
        && call.equals(other.call)
        && answer.equals(other.answer);
  }

  private static String digest(JsonNode answer) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(answer.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
