package dev.baton.server;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A Baton instance with a programmable model, served over HTTP on a free loopback port once {@link
 * #start}ed: what the server's tests drive.
 */
final class ServedBaton implements AutoCloseable {
  final Baton baton = Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "model");
  private @Nullable BatonServer server;

  /** A prompt agent on the programmable model. */
  Agent agent(String name, AgentOptions options) {
    return baton.defineAgent(
        name,
        InlinePrompt.builder().model("model").system("You are " + name + ".").build(),
        options);
  }

  /** Serves every agent and flow, configured further by {@code configure}. */
  ServedBaton start(UnaryOperator<BatonHandler.Builder> configure) {
    return serve(b -> configure.apply(b.allAgents().allFlows()));
  }

  /** Serves what {@code configure} mounts. */
  ServedBaton serve(UnaryOperator<BatonHandler.Builder> configure) {
    return serve(configure, 0);
  }

  /** Serves what {@code configure} mounts on a given port (0 for any). */
  ServedBaton serve(UnaryOperator<BatonHandler.Builder> configure, int port) {
    server =
        BatonServer.start(configure.apply(BatonHandler.builder(baton)).build(), "127.0.0.1", port);
    return this;
  }

  ServedBaton start() {
    return start(b -> b);
  }

  BatonServer server() {
    return Objects.requireNonNull(server, "not started");
  }

  URI url(String path) {
    return server().uri().resolve(path);
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
