package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.ai.Role;
import dev.baton.devtools.DevTools;
import dev.baton.otel.BatonTelemetry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A terminal chat with one of two orchestrators, picked at start (or by the first argument, {@code
 * coordinator} or {@code commander}):
 *
 * <ul>
 *   <li>the coordinator delegates to a researcher and a coder and waits for them (a line is printed
 *       as each delegation starts and ends), reads their artifacts and streams its answer;
 *   <li>the incident commander starts two slow investigators in the background, posts a status
 *       update at once, and folds their answers in as they settle (a line is printed as each task's
 *       state changes, and for every status update).
 * </ul>
 *
 * <p>{@code /quit} or end of input ends the chat. Sessions are kept in memory, or in PostgreSQL
 * when {@code BATON_POSTGRES_URL} is set (see {@link Sessions}). Started by {@code genkit start --
 * <command>}, it also serves Genkit's reflection API, so the Developer UI lists, runs and traces
 * its agents, and it keeps serving after the chat ends.
 */
public final class BasicAgents {
  private BasicAgents() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.in, System.out, System.getenv()));
  }

  /**
   * Runs the chat; returns the process exit code, 2 when the environment or the arguments are
   * incomplete.
   */
  static int run(String[] args, InputStream in, PrintStream out, Map<String, String> env)
      throws IOException {
    Provider provider;
    try {
      provider = Provider.choose(env);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String choice = args.length > 0 ? args[0] : ask(lines, out);
    if (!choice.equals(COORDINATOR) && !choice.equals(COMMANDER)) {
      out.println("Unknown orchestrator \"" + choice + "\": pick coordinator or commander.");
      return 2;
    }
    try (Sessions sessions = Sessions.choose(env);
        BatonTelemetry telemetry = BatonTelemetry.builder().environment(env).build()) {
      return chat(lines, out, provider, sessions, telemetry, choice);
    }
  }

  private static final String COORDINATOR = "coordinator";
  private static final String COMMANDER = "commander";

  /** Asks which orchestrator to talk to; the coordinator unless the answer names the commander. */
  private static String ask(BufferedReader lines, PrintStream out) throws IOException {
    out.print(
        "Talk to 1) the coordinator, who delegates and waits, or 2) the incident commander, who"
            + " works in the background? [1] ");
    out.flush();
    String answer = lines.readLine();
    String picked = answer == null ? "" : answer.strip();
    return picked.equals("2") || picked.equals(COMMANDER) ? COMMANDER : COORDINATOR;
  }

  private static int chat(
      BufferedReader lines,
      PrintStream out,
      Provider provider,
      Sessions sessions,
      BatonTelemetry telemetry,
      String choice)
      throws IOException {
    Baton.Builder builder = Baton.builder().experimental().openTelemetry(telemetry);
    if (provider.plugin() != null) {
      builder.plugin(provider.plugin());
    }
    Baton baton = builder.build();
    if (provider.isDemo()) {
      DemoModel.define(baton);
    }
    Console console = new Console(out);
    Agent orchestrator;
    if (choice.equals(COMMANDER)) {
      // The demo's investigators are quick; real ones take seconds, like the seed's sample.
      Duration slowness = provider.isDemo() ? Duration.ofMillis(150) : Duration.ofSeconds(1);
      orchestrator =
          new IncidentRoom(console, slowness).define(baton, provider.model(), sessions.store());
      out.println(
          "Baton basic-agents: an incident commander with a log analyst and a deploy auditor.");
      out.println("Try: checkout-api is throwing 500s and customers can't pay");
    } else {
      orchestrator = Team.define(baton, provider.model(), console, sessions.store());
      out.println("Baton basic-agents: a coordinator with a researcher and a coder.");
    }
    out.println("Model: " + provider.label());
    if (sessions.label() != null) {
      out.println("Sessions: " + sessions.label());
    }
    if (provider.isDemo()) {
      out.println(
          "Set GEMINI_API_KEY, or OPENAI_API_KEY / OPENAI_BASE_URL, to talk to a real model.");
    }
    // Under "genkit start -- <this command>" (GENKIT_ENV=dev) the Genkit CLI and Developer UI
    // list, run and trace the agents; otherwise this does nothing.
    try (DevTools devTools = DevTools.start(baton)) {
      devTools
          .url()
          .ifPresent(url -> out.println("Serving Genkit's reflection API at " + url + "."));
      out.println("Type a request, or /quit to leave.");
      int exit = converse(lines, out, orchestrator, console, choice);
      if (devTools.isRunning()) {
        out.println("Input ended; still serving Genkit's Developer UI until stopped.");
        new CountDownLatch(1).await();
      }
      return exit;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** The chat itself: one turn per line until {@code /quit} or the end of input. */
  private static int converse(
      BufferedReader lines, PrintStream out, Agent orchestrator, Console console, String choice)
      throws IOException {
    AgentConnection chat = orchestrator.connect(AgentInit.NEW);
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
      failed = streamTurn(chat, console, choice, orchestrator);
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
  private static boolean streamTurn(
      AgentConnection chat, Console console, String speaker, Agent agent) {
    boolean speaking = false;
    for (AgentStreamChunk chunk : chat.receive()) {
      String text =
          chunk.modelChunk() != null && chunk.modelChunk().role() == Role.MODEL
              ? chunk.modelChunk().text()
              : "";
      if (!text.isEmpty()) {
        if (!speaking) {
          console.say(speaker + "> ");
          speaking = true;
        }
        console.say(text);
      }
      if (chunk.turnEnd() != null) {
        console.say("\n");
        UsageReport.print(console, agent, chunk.turnEnd());
        return chunk.turnEnd().finishReason() == AgentFinishReason.FAILED;
      }
    }
    return true;
  }
}
