package dev.baton.middleware.budget;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What a {@link Budget} counts against. */
public enum BudgetScope {
  /**
   * Every model call made under one generate call: the tool loop's, its hooks', nested generates',
   * and those of the agents it runs in this process, a background delegation's included while the
   * call lasts. For a prompt-backed agent that is one turn. The default.
   */
  RUN("run"),
  /**
   * The agent session's own usage across all its turns and invocations, as the session records it
   * when the run starts ({@code SessionState.usage}), plus every call the run makes, sub-agents
   * included. It needs a server-managed agent (one with a session store): client-managed state
   * comes back from the caller, who could drop its usage.
   */
  SESSION("session");

  private final String wireName;

  BudgetScope(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /**
   * Reads a wire name.
   *
   * @throws IllegalArgumentException for anything but {@code run} and {@code session} (JSON config
   *     reports it as {@code INVALID_ARGUMENT})
   */
  @JsonCreator
  public static BudgetScope fromWireName(String wireName) {
    for (BudgetScope scope : values()) {
      if (scope.wireName.equals(wireName)) {
        return scope;
      }
    }
    throw new IllegalArgumentException(
        "unknown budget scope \"" + wireName + "\": use \"run\" or \"session\"");
  }
}
