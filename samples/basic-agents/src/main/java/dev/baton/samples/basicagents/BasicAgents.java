package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.ai.Role;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A terminal chat with the coordinator. Type a request; the coordinator delegates to the researcher
 * and the coder (a line is printed as each delegation starts and ends), reads their artifacts and
 * streams its answer. {@code /quit} or end of input ends the chat. The coordinator keeps its
 * sessions in memory, or in PostgreSQL when {@code BATON_POSTGRES_URL} is set (see {@link
 * Sessions}).
 */
public final class BasicAgents {
  private BasicAgents() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(System.in, System.out, System.getenv()));
  }

  /** Runs the chat; returns the process exit code, 2 when the environment is incomplete. */
  static int run(InputStream in, PrintStream out, Map<String, String> env) throws IOException {
    Provider provider;
    try {
      provider = Provider.choose(env);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    try (Sessions sessions = Sessions.choose(env)) {
      return chat(in, out, provider, sessions);
    }
  }

  private static int chat(InputStream in, PrintStream out, Provider provider, Sessions sessions)
      throws IOException {
    Baton.Builder builder = Baton.builder().experimental();
    if (provider.plugin() != null) {
      builder.plugin(provider.plugin());
    }
    Baton baton = builder.build();
    if (provider.isDemo()) {
      DemoModel.define(baton);
    }
    Console console = new Console(out);
    Agent coordinator = Team.define(baton, provider.model(), console, sessions.store());

    out.println("Baton basic-agents: a coordinator with a researcher and a coder.");
    out.println("Model: " + provider.label());
    if (sessions.label() != null) {
      out.println("Sessions: " + sessions.label());
    }
    if (provider.isDemo()) {
      out.println(
          "Set GEMINI_API_KEY, or OPENAI_API_KEY / OPENAI_BASE_URL, to talk to a real model.");
    }
    out.println("Type a request, or /quit to leave.");

    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    AgentConnection chat = coordinator.connect(AgentInit.NEW);
    boolean failed = false;
    String line;
    while (!failed) {
      out.print("\nyou> ");
      out.flush();
      if ((line = lines.readLine()) == null || line.strip().equals("/quit")) {
        break;
      }
      if (line.isBlank()) {
        continue;
      }
      chat.sendText(line.strip());
      failed = streamTurn(chat, console, coordinator);
    }
    AgentOutput output = chat.output();
    if (output.isFailed() && output.error() != null) {
      out.println("\nAgent failed (" + output.error().status() + "): " + output.error().message());
      out.println(hint(output.error().status()));
      out.println("Last-good snapshot: " + output.snapshotId());
      return 1;
    }
    out.println("\nSession " + output.sessionId() + ", last snapshot " + output.snapshotId() + ".");
    return 0;
  }

  /** What to try after a failure, by its status. */
  private static String hint(String status) {
    return switch (status) {
      case "UNAVAILABLE", "RESOURCE_EXHAUSTED" ->
          "The model is busy or rate limited; try again later.";
      case "INVALID_ARGUMENT" -> "The request was refused; rephrase it.";
      case "CANCELLED", "DEADLINE_EXCEEDED" -> "The turn was cut short; resume from the snapshot.";
      default -> "See the message above.";
    };
  }

  /**
   * Prints the turn's streamed text, then what the turn spent ({@link UsageReport}); returns
   * whether the turn failed.
   */
  private static boolean streamTurn(AgentConnection chat, Console console, Agent agent) {
    boolean speaking = false;
    for (AgentStreamChunk chunk : chat.receive()) {
      String text =
          chunk.modelChunk() != null && chunk.modelChunk().role() == Role.MODEL
              ? chunk.modelChunk().text()
              : "";
      if (!text.isEmpty()) {
        if (!speaking) {
          console.say("coordinator> ");
          speaking = true;
        }
        console.say(text);
      }
      if (chunk.turnEnd() != null) {
        console.say("\n");
        UsageReport.print(console, agent, chunk.turnEnd());
        return chunk.turnEnd().finishReason() == dev.baton.agent.AgentFinishReason.FAILED;
      }
    }
    return true;
  }
}
