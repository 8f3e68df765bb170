package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.server.FuzzCases.Case;
import dev.baton.server.TestHttp.Answer;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * 10,000 generated request bodies, from a fixed seed ({@code -Dbaton.fuzz.seed} picks another), a
 * third of them streamed: malformed JSON, wrong types, huge and deeply nested values, unknown
 * fields, bad IDs and bad init combinations. What it checks:
 *
 * <ul>
 *   <li>no answer is a 5xx: every case is a client's mistake or a valid request;
 *   <li>no answer carries a stack trace or an internal message (a Java class name, an exception);
 *   <li>every rejection carries a status Genkit's protocol gives for the mistake (see {@code
 *       docs/wire.md}), with the HTTP code of Genkit's table (413 for a body over the limit), or as
 *       the stream's error frame;
 *   <li>the server then still serves a normal turn.
 * </ul>
 *
 * <p>The A2A binding's fuzz test runs on the same {@link FuzzHarness}.
 */
@Timeout(300)
class ServerFuzzTest {
  private static final int CASES = 10_000;
  private static final int CONCURRENCY = 8;
  @AutoClose final ServedBaton served = new ServedBaton();

  @Test
  void generatedBodiesAreAnsweredWithTheirStatusAndLeakNothing() throws Exception {
    served.agent(
        "chat", AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    served.agent("stateless", AgentOptions.DEFAULTS);
    served.baton.defineFlow("echo", String.class, String.class, (ctx, in) -> in);
    served.model.fallback(request -> ModelResponse.of(Message.model("ok"), FinishReason.STOP));
    served.start(b -> b.maxRequestBytes(FuzzCases.MAX_BYTES).exposeErrorMessages(false));
    long seed = Long.getLong("baton.fuzz.seed", 20261201L);
    FuzzCases cases = new FuzzCases(seed);

    Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
    Map<String, LongAdder> byStatus = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> leaks = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> wrongStatus = new ConcurrentLinkedQueue<>();
    AtomicInteger streamed = new AtomicInteger();
    FuzzHarness.run(
        CASES,
        CONCURRENCY,
        i -> cases.next(),
        (c, i) -> {
          boolean stream = i % 3 == 0;
          Answer answer = post(c, stream);
          byKind.computeIfAbsent(c.kind(), k -> new LongAdder()).increment();
          if (stream) {
            streamed.incrementAndGet();
          }
          String what = c.kind() + (stream ? " (streamed) " : " ") + abbreviate(c.body());
          if (answer.status() >= 500) {
            serverErrors.add(answer.status() + " for " + what + ": " + answer.body());
          }
          if (FuzzHarness.INTERNAL_DETAIL.matcher(answer.body()).find()) {
            leaks.add(what + " -> " + abbreviate(answer.body()));
          }
          Optional<String> problem = checkStatus(c, stream, answer, byStatus);
          problem.ifPresent(p -> wrongStatus.add(what + ": " + p));
        });

    served.model.fallback(
        request -> ModelResponse.of(Message.model("still here"), FinishReason.STOP));
    Answer normal =
        TestHttp.post(
            served.url("/agents/chat"),
            TestHttp.envelope(Map.of("message", Message.user("hello"))));
    System.out.printf(
        "fuzz seed %d: %d bodies (%d streamed); 5xx: %d; internal details on the wire: %d;"
            + " wrong statuses: %d; normal turn afterwards: HTTP %d%n  by kind: %s%n"
            + "  by status: %s%n",
        seed,
        CASES,
        streamed.get(),
        serverErrors.size(),
        leaks.size(),
        wrongStatus.size(),
        normal.status(),
        new TreeMap<>(byKind),
        new TreeMap<>(byStatus));
    assertThat(serverErrors).as("answers of 500 and above").isEmpty();
    assertThat(leaks).as("stack traces or internal messages on the wire").isEmpty();
    assertThat(wrongStatus)
        .as("rejections with a status Genkit's protocol does not give")
        .isEmpty();
    assertThat(normal.status()).isEqualTo(200);
    assertThat(normal.json().at("/result/message/content/0/text").stringValue())
        .isEqualTo("still here");
    assertThat(byKind.keySet()).containsAll(FuzzCases.kinds());
  }

  private Answer post(Case c, boolean stream) {
    return TestHttp.post(served.url(c.path() + (stream ? "?stream=true" : "")), c.body());
  }

  /** What is wrong with the status of an answer, if anything; counts what it saw. */
  private static Optional<String> checkStatus(
      Case c, boolean stream, Answer answer, Map<String, LongAdder> byStatus) {
    Status seen;
    final JsonNode outcome;
    if (answer.status() != 200) {
      JsonNode body = Json.parse(answer.body());
      seen = Status.fromName(body.path("status").asString("")).orElse(null);
      if (seen == null) {
        return Optional.of("HTTP " + answer.status() + " without a status: " + answer.body());
      }
      int expectedHttp = c.kind().equals("over the size limit") ? 413 : seen.httpStatus();
      if (answer.status() != expectedHttp) {
        return Optional.of("HTTP " + answer.status() + " for " + seen);
      }
      if (stream && !c.beforeTheAction() && seen != Status.NOT_FOUND) {
        return Optional.of("a streamed refusal of the action came as HTTP " + answer.status());
      }
      outcome = null;
    } else {
      if (stream) {
        var frames = answer.frames();
        if (frames.isEmpty()
            || !frames.subList(0, frames.size() - 1).stream().allMatch(f -> f.has("message"))) {
          return Optional.of("the stream does not end with exactly one result or error");
        }
        outcome = frames.get(frames.size() - 1);
      } else {
        outcome = answer.json();
      }
      if (outcome.has("error")) {
        seen = Status.fromName(outcome.at("/error/status").asString("")).orElse(Status.UNKNOWN);
      } else if (outcome.has("result")) {
        seen = Status.OK;
        JsonNode error = outcome.at("/result/error");
        // A failed turn is a result; its error must still be the client's mistake, a bad input (a
        // detach the agent cannot take is refused as an error, not as a failed turn).
        if (!error.isMissingNode()
            && !error.path("status").asString("").equals("INVALID_ARGUMENT")) {
          return Optional.of("a failed turn with " + error);
        }
      } else {
        return Optional.of("neither a result nor an error: " + abbreviate(answer.body()));
      }
    }
    byStatus.computeIfAbsent(seen.name(), k -> new LongAdder()).increment();
    return c.allowed().contains(seen)
        ? Optional.empty()
        : Optional.of(seen + " where Genkit's protocol gives " + c.allowed());
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
