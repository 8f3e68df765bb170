package dev.baton.internal.middleware.agents;

import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolResponse;
import org.jspecify.annotations.Nullable;

/**
 * A tool call as the resume API names it: by its tool's name and its ref, which may be absent.
 *
 * @param name the tool's name
 * @param ref the call's ref, or null for a call the model made without one
 */
record CallKey(String name, @Nullable String ref) {
  static CallKey of(ToolRequest call) {
    return new CallKey(call.name(), call.ref());
  }

  static CallKey of(ToolResponse response) {
    return new CallKey(response.name(), response.ref());
  }
}
