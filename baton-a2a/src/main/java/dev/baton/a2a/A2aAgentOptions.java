package dev.baton.a2a;

import dev.baton.agent.HttpAgentOptions;

/**
 * How an A2A agent is set up as a Baton sub-agent: its description, if not the card's, and how
 * Baton talks to it (the headers each request carries, how long a call may take, how often a wait
 * reads the task of an agent that does not stream). The card is read with the headers too, in the
 * context of the Baton instance. Build with {@link #builder()}; each option may be set once, and a
 * second call is a programming error ({@link IllegalStateException}).
 *
 * <pre>{@code
 * Agent researcher = A2aAgents.define(baton, "researcher",
 *     URI.create("https://research.example/.well-known/agent-card.json"),
 *     A2aAgentOptions.builder()
 *         .headers(ctx -> Map.of("Authorization", "Bearer " + tokens.current()))
 *         .build());
 * }</pre>
 *
 * <p>Immutable and thread-safe (the header function and the client it holds are shared as given).
 */
public final class A2aAgentOptions extends HttpAgentOptions {
  /** The card's description, no extra headers, the default timings, a client of Baton's own. */
  public static final A2aAgentOptions DEFAULTS = builder().build();

  private A2aAgentOptions(Builder b) {
    super(b);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Collects options, each at most once: those of {@link HttpAgentOptions.Builder}. */
  public static final class Builder extends HttpAgentOptions.Builder<Builder, A2aAgentOptions> {
    private Builder() {}

    @Override
    public A2aAgentOptions build() {
      return new A2aAgentOptions(this);
    }
  }
}
