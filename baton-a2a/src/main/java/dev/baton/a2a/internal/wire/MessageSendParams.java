package dev.baton.a2a.internal.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The params of {@code message/send} and {@code message/stream}. */
public record MessageSendParams(
    Message message, @Nullable Configuration configuration, @Nullable ObjectNode metadata) {

  /** How the client wants the answer; {@code blocking} false answers at once with the task. */
  public record Configuration(
      @Nullable List<String> acceptedOutputModes,
      @Nullable Integer historyLength,
      @Nullable Boolean blocking,
      @Nullable JsonNode pushNotificationConfig) {}

  /** Whether {@code message/send} waits for the task to end or to need input (the default). */
  public boolean blocking() {
    return configuration == null || !Boolean.FALSE.equals(configuration.blocking());
  }
}
