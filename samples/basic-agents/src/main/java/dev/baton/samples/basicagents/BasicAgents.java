package dev.baton.samples.basicagents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.TurnEnd;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * A terminal chat with one of three orchestrators, picked at start (or by the first argument,
 * {@code coordinator}, {@code commander} or {@code lead}):
 *
 * <ul>
 *   <li>the coordinator delegates to a researcher and a coder and waits for them (a line is printed
 *       as each delegation starts and ends), reads their artifacts and streams its answer;
 *   <li>the incident commander starts two slow investigators in the background, posts a status
 *       update at once, and folds their answers in as they settle (a line is printed as each task's
 *       state changes, and for every status update);
 *   <li>the lead hands coding work to a coder that writes files into a workspace ({@code
 *       BATON_WORKSPACE}, else {@code baton-workshop} in the temporary directory), each write only
 *       with the user's approval: the coder's question reaches the terminal through the lead
 *       ("file_coder wants to write src/Main.java: approve? [y/n]"), and the work goes on with the
 *       answer.
 * </ul>
 *
 * <p>A first line that picks neither is the first request, to the coordinator. {@code /quit} or end
 * of input ends the chat. Sessions are kept in memory, or in PostgreSQL when {@code
 * BATON_POSTGRES_URL} is set (see {@link Sessions}). Started by {@code genkit start -- <command>},
 * it also serves Genkit's reflection API, so the Developer UI lists, runs and traces the agents of
 * every orchestrator, and the CLI runs the {@code ask} flow ({@link #defineAskFlow}), which goes to
 * the orchestrator named by the first argument, else to the coordinator; it serves from before the
 * question until it is stopped, after the chat ends too.
 */
public final class BasicAgents {
  private BasicAgents() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.in, System.out, System.getenv(), onATerminal()));
  }

  /**
   * Runs the chat; returns the process exit code, 2 when the environment or the arguments are
   * incomplete.
   *
   * @param terminal whether the input and output are a terminal, which shows each line as the user
   *     types it
   */
  static int run(
      String[] args, InputStream in, PrintStream out, Map<String, String> env, boolean terminal)
      throws IOException {
    Provider provider;
    try {
      provider = Provider.choose(env);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    String named = args.length > 0 ? args[0] : null;
    if (named != null && !List.of(COORDINATOR, COMMANDER, LEAD).contains(named)) {
      out.println("Unknown orchestrator \"" + named + "\": pick coordinator, commander or lead.");
      return 2;
    }
    // Lines read are echoed unless something else shows them: a terminal, or the one Genkit's CLI
    // (GENKIT_ENV=dev) runs in, whose input it forwards to the sample through a pipe.
    boolean echo = !terminal && !"dev".equals(env.get("GENKIT_ENV"));
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    Console console = new Console(out, echo);
    try (Sessions sessions = Sessions.choose(env);
        BatonTelemetry telemetry = BatonTelemetry.builder().environment(env).build()) {
      return chat(lines, console, out, provider, sessions, telemetry, workspace(env), named);
    }
  }

  /**
   * Whether standard input and output are a terminal. From JDK 22 there is a console for redirected
   * streams too, and {@code Console.isTerminal()} tells; it is called reflectively because the
   * sample is compiled for Java 21, where a console exists only for a terminal.
   */
  // A null console is the whole answer on JDK 21 only; from JDK 22 isTerminal() is asked as well.
  @SuppressWarnings("SystemConsoleNull")
  private static boolean onATerminal() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException java21) {
      return true;
    }
  }

  private static final String COORDINATOR = "coordinator";
  private static final String COMMANDER = "commander";
  private static final String LEAD = "lead";

  /** Where the lead's coder writes: {@code BATON_WORKSPACE}, else a directory the sample names. */
  private static Path workspace(Map<String, String> env) {
    String named = env.get("BATON_WORKSPACE");
    return named != null && !named.isBlank()
        ? Path.of(named)
        : Path.of(System.getProperty("java.io.tmpdir"), "baton-workshop");
  }

  /** The orchestrator to talk to, and the first request if the user has already made it. */
  private record Choice(String orchestrator, @Nullable String firstRequest) {}

  /**
   * Asks which orchestrator to talk to: the commander for "2" or its name, the lead for "3" or its
   * name, the coordinator for "1", its name or nothing. Any other answer is a request, typed or
   * piped before the question was read: it goes to the coordinator as the first request rather than
   * being lost.
   */
  private static Choice ask(BufferedReader lines, Console console) throws IOException {
    String answer =
        console.ask(
            lines,
            "Talk to 1) the coordinator, who delegates and waits, 2) the incident commander,"
                + " who works in the background, or 3) the lead, whose coder asks before it writes"
                + " a file? [1] ");
    String picked = answer == null ? "" : answer.strip();
    return switch (picked) {
      case "2", COMMANDER -> new Choice(COMMANDER, null);
      case "3", LEAD -> new Choice(LEAD, null);
      case "", "1", COORDINATOR -> new Choice(COORDINATOR, null);
      default -> new Choice(COORDINATOR, picked);
    };
  }

  /**
   * Defines the orchestrators and starts the dev tools before asking which one to talk to, so that
   * under {@code genkit start} the Developer UI and {@code genkit flow:run} find the runtime while
   * the question waits for an answer.
   *
   * @param named the orchestrator named on the command line, or null to ask
   */
  private static int chat(
      BufferedReader lines,
      Console console,
      PrintStream out,
      Provider provider,
      Sessions sessions,
      BatonTelemetry telemetry,
      Path workspace,
      @Nullable String named)
      throws IOException {
    Baton.Builder builder = Baton.builder().experimental().openTelemetry(telemetry);
    if (provider.plugin() != null) {
      builder.plugin(provider.plugin());
    }
    Baton baton = builder.build();
    if (provider.isDemo()) {
      DemoModel.define(baton);
    }
    Agent coordinator = Team.define(baton, provider.model(), console::line, sessions.store());
    // The demo's investigators are quick; real ones take seconds, like Genkit's sample.
    Duration slowness = provider.isDemo() ? Duration.ofMillis(150) : Duration.ofSeconds(1);
    Agent commander =
        new IncidentRoom(console::line, slowness).define(baton, provider.model(), sessions.store());
    Agent lead =
        Workshop.define(baton, provider.model(), sessions.store(), workspace, console::line);
    Map<String, Agent> orchestrators =
        Map.of(COORDINATOR, coordinator, COMMANDER, commander, LEAD, lead);
    defineAskFlow(
        baton, named == null ? coordinator : orchestrators.getOrDefault(named, coordinator));
    out.println(
        "Baton basic-agents: a coordinator with a researcher and a coder, an incident commander"
            + " with a log analyst and a deploy auditor, and a lead with a coder that asks before"
            + " it writes a file.");
    out.println("Model: " + provider.label());
    if (sessions.label() != null) {
      out.println("Sessions: " + sessions.label());
    }
    if (provider.isDemo()) {
      out.println(
          "Set GEMINI_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY / OPENAI_BASE_URL, or"
              + " GOOGLE_CLOUD_PROJECT with Google Cloud credentials, to talk to a real model.");
    }
    // Under "genkit start -- <this command>" (GENKIT_ENV=dev) the Genkit CLI and Developer UI
    // list, run and trace the agents and the flow; otherwise this does nothing.
    try (DevTools devTools = DevTools.start(baton)) {
      devTools
          .url()
          .ifPresent(url -> out.println("Serving Genkit's reflection API at " + url + "."));
      Choice choice = named != null ? new Choice(named, null) : ask(lines, console);
      Agent orchestrator = orchestrators.getOrDefault(choice.orchestrator(), coordinator);
      if (choice.orchestrator().equals(COMMANDER)) {
        out.println("Try: checkout-api is throwing 500s and customers can't pay");
      }
      if (choice.orchestrator().equals(LEAD)) {
        out.println("The coder writes into " + workspace.toAbsolutePath() + ".");
        out.println("Try: a program that prints hello");
      }
      out.println("Type a request, or /quit to leave.");
      int exit = converse(lines, out, baton.context(), orchestrator, console, choice);
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
      BufferedReader lines,
      PrintStream out,
      ActionContext context,
      Agent orchestrator,
      Console console,
      Choice choice)
      throws IOException {
    AgentConnection chat = orchestrator.connect(context, AgentInit.NEW);
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
      TurnEnd end = streamTurn(chat, console, choice.orchestrator(), orchestrator);
      // A turn that stopped for the user's approval goes on with the answer, in the same turn.
      while (end != null && end.finishReason() == AgentFinishReason.INTERRUPTED) {
        // The lead keeps its sessions, so its stopped turn is a snapshot that holds the questions.
        String stopped = Objects.requireNonNull(end.snapshotId(), "the stopped turn's snapshot");
        Resume answer = Approvals.ask(lines, console, orchestrator.snapshots(context).get(stopped));
        if (answer == null) {
          break;
        }
        chat.sendResume(answer);
        end = streamTurn(chat, console, choice.orchestrator(), orchestrator);
      }
      failed = end == null || end.finishReason() == AgentFinishReason.FAILED;
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
   * Prints the turn's streamed text, then what the turn spent ({@link UsageReport}); returns how
   * the turn ended, or null when the invocation ended without a turn end.
   */
  private static @Nullable TurnEnd streamTurn(
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
        return chunk.turnEnd();
      }
    }
    return null;
  }
}
