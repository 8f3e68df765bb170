package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Who keeps an agent's session: the server, in its session store, or the client, which sends the
 * state back with every invocation.
 */
public enum StateManagement {
  SERVER("server"),
  CLIENT("client");

  private final String wireName;

  StateManagement(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
