package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.ai.Role;
import dev.baton.core.Flow;
import dev.baton.core.StreamCallback;
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
import org.jspecify.annotations.Nullable;

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
 * <p>A first line that picks neither is the first request, to the coordinator. {@code /quit} or end
 * of input ends the chat. Sessions are kept in memory, or in PostgreSQL when {@code
 * BATON_POSTGRES_URL} is set (see {@link Sessions}). Started by {@code genkit start -- <command>},
 * it also serves Genkit's reflection API, so the Developer UI lists, runs and traces its agents,
 * and the CLI runs the {@code ask} flow ({@link #defineAskFlow}); it keeps serving after the chat
 * ends.
 */
public final class BasicAgents {
  private BasicAgents() {}

  public static void main(String[] args) throws IOException {
    // No console: the streams are redirected, and no terminal echoes what is piped in. (JDK 22 to
    // 24 answer a console for redirected streams too; there piped lines go unechoed.)
    boolean echo = System.console() == null;
    System.exit(run(args, System.in, System.out, System.getenv(), echo));
  }

  /**
   * Runs the chat; returns the process exit code, 2 when the environment or the arguments are
   * incomplete.
   *
   * @param echo whether to print each line read after its prompt (see {@link Console})
   */
  static int run(
      String[] args, InputStream in, PrintStream out, Map<String, String> env, boolean echo)
      throws IOException {
    Provider provider;
    try {
      provider = Provider.choose(env);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    Console console = new Console(out, echo);
    Choice choice = args.length > 0 ? new Choice(args[0], null) : ask(lines, console);
    if (!choice.orchestrator().equals(COORDINATOR) && !choice.orchestrator().equals(COMMANDER)) {
      out.println(
          "Unknown orchestrator \"" + choice.orchestrator() + "\": pick coordinator or commander.");
      return 2;
    }
    try (Sessions sessions = Sessions.choose(env);
        BatonTelemetry telemetry = BatonTelemetry.builder().environment(env).build()) {
      return chat(lines, console, out, provider, sessions, telemetry, choice);
    }
  }

  private static final String COORDINATOR = "coordinator";
  private static final String COMMANDER = "commander";

  /** The orchestrator to talk to, and the first request if the user has already made it. */
  private record Choice(String orchestrator, @Nullable String firstRequest) {}

  /**
   * Asks which orchestrator to talk to: the commander for "2" or its name, the coordinator for "1",
   * its name or nothing. Any other answer is a request, typed or piped before the question was
   * read: it goes to the coordinator as the first request rather than being lost.
   */
  private static Choice ask(BufferedReader lines, Console console) throws IOException {
    String answer =
        console.ask(
            lines,
            "Talk to 1) the coordinator, who delegates and waits, or 2) the incident commander,"
                + " who works in the background? [1] ");
    String picked = answer == null ? "" : answer.strip();
    return switch (picked) {
      case "2", COMMANDER -> new Choice(COMMANDER, null);
      case "", "1", COORDINATOR -> new Choice(COORDINATOR, null);
      default -> new Choice(COORDINATOR, picked);
    };
  }

  private static int chat(
      BufferedReader lines,
      Console console,
      PrintStream out,
      Provider provider,
      Sessions sessions,
      BatonTelemetry telemetry,
      Choice choice)
      throws IOException {
    Baton.Builder builder = Baton.builder().experimental().openTelemetry(telemetry);
    if (provider.plugin() != null) {
      builder.plugin(provider.plugin());
    }
    Baton baton = builder.build();
    if (provider.isDemo()) {
      DemoModel.define(baton);
    }
    Agent orchestrator;
    if (choice.orchestrator().equals(COMMANDER)) {
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
    defineAskFlow(baton, orchestrator);
    // Under "genkit start -- <this command>" (GENKIT_ENV=dev) the Genkit CLI and Developer UI
    // list, run and trace the agents and the flow; otherwise this does nothing.
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

  /**
   * For {@code genkit flow:run ask '"<request>"'}: one request to the orchestrator, in a session of
   * its own; answers the orchestrator's reply, or fails with the turn's error.
   */
  static Flow<String, String, Void> defineAskFlow(Baton baton, Agent orchestrator) {
    return baton.defineFlow(
        "ask",
        String.class,
        String.class,
        (context, request) -> {
          AgentOutput output =
              orchestrator.run(
                  context, AgentInput.text(request), AgentInit.NEW, StreamCallback.discard());
          if (output.isFailed() && output.error() != null) {
            throw output.error().toException();
          }
          return output.text();
        });
  }

  /** The chat itself: one turn per line until {@code /quit} or the end of input. */
  private static int converse(
      BufferedReader lines, PrintStream out, Agent orchestrator, Console console, Choice choice)
      throws IOException {
    AgentConnection chat = orchestrator.connect(AgentInit.NEW);
    String first = choice.firstRequest();
    if (first != null) {
      console.say("\nyou> " + first + "\n");
    }
    boolean failed = false;
    int turns = 0;
    while (!failed) {
      String line = first != null ? first : console.ask(lines, "\nyou> ");
      first = null;
      if (line == null || line.strip().equals("/quit")) {
        break;
      }
      if (line.isBlank()) {
        continue;
      }
      chat.sendText(line.strip());
      failed = streamTurn(chat, console, choice.orchestrator(), orchestrator);
      turns++;
    }
    AgentOutput output = chat.output();
    if (output.isFailed() && output.error() != null) {
      out.println("\nAgent failed (" + output.error().status() + "): " + output.error().message());
      out.println(hint(output.error().status()));
      out.println("Last-good snapshot: " + output.snapshotId());
      return 1;
    }
    out.println(
        turns == 0
            ? "\nNo request made, so no session was saved."
            : "\nSession " + output.sessionId() + ", last snapshot " + output.snapshotId() + ".");
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
