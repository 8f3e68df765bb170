package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one scenario of Genkit's {@code agent.yaml} against a {@link Driver}, the way Genkit's own
 * harnesses do: chunks compare by count and order (a {@code turnEnd} by presence and finish reason,
 * anything else by containment), state messages as ordered subsequences, errors by status (and,
 * here, message text too), aborts by the status the snapshot had before.
 *
 * <p>Not thread-safe: it keeps the values a scenario captures.
 */
public final class AgentConformance {
  /** How the scenarios reach the agents: in process, or over HTTP. */
  public interface Driver {
    /** Scripts the model's next responses (one per call) and stream chunks (per call). */
    void scriptModel(JsonNode modelResponses, JsonNode streamChunks);

    /** Runs one invocation: sends every input, then waits for the output. */
    Sent send(String agent, JsonNode init, List<JsonNode> inputs);

    /** Reads a snapshot by ID or by session ID. */
    JsonNode getSnapshot(String agent, @Nullable String snapshotId, @Nullable String sessionId);

    /** Aborts a snapshot; a missing one is not an error. */
    void abort(String agent, String snapshotId);
  }

  /** The chunks and output of one invocation, as JSON; the trees are copied in and out. */
  public record Sent(List<JsonNode> chunks, JsonNode output) {
    public Sent {
      chunks = chunks.stream().map(Json::copy).toList();
      output = Json.copy(output);
    }

    /** Copies: the record stays immutable whatever the caller does with them. */
    @Override
    public List<JsonNode> chunks() {
      return chunks.stream().map(Json::copy).toList();
    }

    /** A copy: the record stays immutable whatever the caller does with it. */
    @Override
    public JsonNode output() {
      return Json.copy(output);
    }
  }

  private final Driver driver;
  private final Map<String, JsonNode> captured = new HashMap<>();

  public AgentConformance(Driver driver) {
    this.driver = driver;
  }

  public void run(JsonNode scenario) {
    String agent = scenario.path("agent").asString();
    for (JsonNode step : scenario.path("steps")) {
      JsonNode resolved = substitute(step);
      switch (resolved.path("type").asString()) {
        case "send" -> send(agent, resolved);
        case "getSnapshotData" ->
            checkSnapshot(
                driver.getSnapshot(
                    agent, text(resolved, "snapshotId"), text(resolved, "sessionId")),
                resolved.path("expectSnapshot"));
        case "waitUntilCompleted" -> waitUntilCompleted(agent, resolved);
        case "abort" -> abort(agent, resolved);
        default -> fail("unknown step type " + resolved.path("type"));
      }
    }
  }

  private void send(String agent, JsonNode step) {
    driver.scriptModel(step.path("modelResponses"), step.path("streamChunks"));
    List<JsonNode> inputs = new ArrayList<>();
    step.path("inputs").forEach(inputs::add);
    JsonNode init = step.has("init") ? step.get("init") : Json.object();
    if (step.has("expectError")) {
      JsonNode expected = step.get("expectError");
      try {
        driver.send(agent, init, inputs);
        fail("expected the invocation to fail with " + expected);
      } catch (BatonException e) {
        assertThat(e.status().name()).isEqualTo(expected.path("status").asString());
        if (expected.has("message")) {
          assertThat(e.getMessage()).contains(expected.path("message").asString());
        }
      }
      return;
    }
    Sent sent = driver.send(agent, init, inputs);
    if (step.has("expectChunks")) {
      checkChunks(sent.chunks(), step.get("expectChunks"));
    }
    if (step.has("expectOutput")) {
      checkOutput(sent.output(), step.get("expectOutput"));
    }
    capture(step, "captureSnapshotId", sent.output().path("snapshotId"));
    capture(step, "captureState", sent.output().path("state"));
    capture(step, "captureSessionId", sent.output().path("sessionId"));
  }

  private void capture(JsonNode step, String field, JsonNode value) {
    if (step.has(field)) {
      assertThat(value.isMissingNode())
          .as("%s: the output has no value to capture", field)
          .isFalse();
      captured.put(step.get(field).asString(), value);
    }
  }

  private static void checkChunks(List<JsonNode> actual, JsonNode expected) {
    assertThat(actual).as("chunks %s", actual).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      JsonNode want = expected.get(i);
      JsonNode got = actual.get(i);
      if (want.has("turnEnd")) {
        assertThat(got.has("turnEnd")).as("chunk %d is a turnEnd: %s", i, got).isTrue();
        JsonNode reason = want.get("turnEnd").path("finishReason");
        if (!reason.isMissingNode()) {
          assertThat(got.get("turnEnd").path("finishReason").asString())
              .isEqualTo(reason.asString());
        }
      } else {
        assertContains("chunk " + i, got, want);
      }
    }
  }

  private static void checkOutput(JsonNode output, JsonNode expected) {
    ObjectNode plain = (ObjectNode) expected.deepCopy();
    if (plain.remove("hasSessionId") != null) {
      assertThat(output.path("sessionId").asString("")).as("sessionId in %s", output).isNotEmpty();
    }
    if (plain.remove("hasSnapshotId") != null) {
      assertThat(output.path("snapshotId").asString(""))
          .as("snapshotId in %s", output)
          .isNotEmpty();
    }
    JsonNode state = plain.remove("stateContains");
    if (state != null) {
      assertContains("output state", output.path("state"), state);
    }
    JsonNode artifacts = plain.remove("artifactsContain");
    if (artifacts != null) {
      assertContains("output artifacts", output.path("artifacts"), artifacts);
    }
    JsonNode error = plain.remove("errorContains");
    if (error != null) {
      assertThat(output.path("error").path("status").asString())
          .isEqualTo(error.path("status").asString());
      assertThat(output.path("error").path("message").asString(""))
          .contains(error.path("message").asString());
    }
    assertContains("output", output, plain);
  }

  private static void checkSnapshot(JsonNode snapshot, JsonNode expected) {
    ObjectNode plain = (ObjectNode) expected.deepCopy();
    if (plain.remove("hasSessionId") != null) {
      assertThat(snapshot.path("sessionId").asString("")).isNotEmpty();
    }
    JsonNode state = plain.remove("stateContains");
    if (state != null) {
      assertContains("snapshot state", snapshot.path("state"), state);
    }
    JsonNode error = plain.remove("errorContains");
    if (error != null) {
      assertThat(snapshot.path("error").path("message").asString(""))
          .contains(error.path("message").asString());
    }
    assertContains("snapshot", snapshot, plain);
  }

  private void waitUntilCompleted(String agent, JsonNode step) {
    String id = step.path("snapshotId").asString();
    AtomicReference<JsonNode> last = new AtomicReference<>();
    Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              last.set(driver.getSnapshot(agent, id, null));
              return !"pending".equals(last.get().path("status").asString());
            });
    checkSnapshot(last.get(), step.path("expectSnapshot"));
  }

  private void abort(String agent, JsonNode step) {
    String id = step.path("snapshotId").asString();
    String previous;
    try {
      previous = driver.getSnapshot(agent, id, null).path("status").asString();
    } catch (BatonException e) {
      assertThat(e.status().name()).isEqualTo("NOT_FOUND");
      previous = null;
    }
    driver.abort(agent, id);
    JsonNode expected = step.path("expectPreviousStatus");
    // YAML's "~" is null; the YAML reader keeps it as text.
    if (expected.isNull() || expected.isMissingNode() || "~".equals(expected.asString(""))) {
      assertThat(previous).isNull();
    } else {
      assertThat(previous).isEqualTo(expected.asString());
    }
  }

  private static void assertContains(String what, JsonNode actual, JsonNode expected) {
    assertThat(JsonMatch.contains(actual, expected))
        .as("%s%n  expected to contain %s%n  but was             %s", what, expected, actual)
        .isTrue();
  }

  private static @Nullable String text(JsonNode step, String field) {
    return step.hasNonNull(field) ? step.get(field).asString() : null;
  }

  /** Replaces {@code '{{name}}'} strings with captured values, recursively. */
  private JsonNode substitute(JsonNode node) {
    if (node.isString()) {
      String text = node.asString();
      if (text.startsWith("{{") && text.endsWith("}}")) {
        JsonNode value = captured.get(text.substring(2, text.length() - 2).trim());
        if (value == null) {
          fail("nothing was captured as " + text);
        }
        return value;
      }
      return node;
    }
    if (node.isObject()) {
      ObjectNode copy = Json.object();
      node.properties().forEach(e -> copy.set(e.getKey(), substitute(e.getValue())));
      return copy;
    }
    if (node.isArray()) {
      var copy = Json.nodes().arrayNode();
      node.forEach(e -> copy.add(substitute(e)));
      return copy;
    }
    return node;
  }
}
