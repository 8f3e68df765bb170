package dev.baton.samples.agentsremote;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.server.BatonServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A terminal chat with the orchestrator. Each question goes to the researcher in parts, in the
 * background, over HTTP; a line is printed as each task starts and settles. The researcher runs on
 * a Baton server this process starts on a free port, unless {@code BATON_RESEARCHER_URL} names one
 * (the basic-agents-server sample serves one at {@code http://127.0.0.1:8080/agents/researcher}).
 * With {@code BATON_PROTOCOL=a2a} the orchestrator reaches the researcher over A2A instead, through
 * its agent card; {@code BATON_RESEARCHER_URL} then names the card of any A2A agent. The model is
 * Gemini when {@code GEMINI_API_KEY} is set, a scripted demo model otherwise. {@code /quit} or end
 * of input ends the chat.
 */
public final class BasicAgentsRemote {
  private BasicAgentsRemote() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(System.in, System.out, System.getenv()));
  }

  static int run(InputStream in, PrintStream out, Map<String, String> env) throws IOException {
    String given = env.get("GEMINI_API_KEY");
    String key = given == null || given.isBlank() ? null : given.strip();
    boolean demo = key == null;
    String model =
        demo ? DemoModel.NAME : env.getOrDefault("BATON_MODEL", "googleai/gemini-flash-latest");
    boolean a2a = "a2a".equalsIgnoreCase(env.getOrDefault("BATON_PROTOCOL", ""));
    String url = env.get("BATON_RESEARCHER_URL");
    BatonServer researcherServer = null;
    if (url == null || url.isBlank()) {
      researcherServer = Orchestration.serveResearcher(baton(demo, key), model);
      url =
          researcherServer.uri()
              + (a2a ? "/a2a/researcher/.well-known/agent-card.json" : "/agents/researcher");
      out.println("Started the researcher's own Baton server at " + url);
    }
    try {
      Baton baton = baton(demo, key);
      Agent researcher =
          a2a
              ? Orchestration.a2aResearcher(baton, URI.create(url))
              : Orchestration.remoteResearcher(baton, URI.create(url));
      Agent orchestrator = Orchestration.orchestrator(baton, model, researcher, out);
      out.println(
          "Baton basic-agents-remote: an orchestrator with a"
              + (a2a ? "n A2A researcher whose card is at " : " remote researcher at ")
              + url);
      out.println(
          "Model: " + (demo ? "scripted demo model (set GEMINI_API_KEY for Gemini)" : model));
      out.println(
          "Ask a question in parts (\"Why are tides high and why do storms form?\"), or /quit.");
      return chat(in, out, orchestrator);
    } finally {
      if (researcherServer != null) {
        researcherServer.close();
      }
    }
  }

  private static Baton baton(boolean demo, @Nullable String key) {
    Baton.Builder builder = Baton.builder().experimental();
    if (key != null) {
      builder.plugin(GoogleAI.builder().apiKey(key).build());
    }
    Baton baton = builder.build();
    if (demo) {
      DemoModel.define(baton);
    }
    return baton;
  }

  private static int chat(InputStream in, PrintStream out, Agent orchestrator) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    AgentInit init = AgentInit.NEW;
    String line;
    while (true) {
      out.print("\nyou> ");
      out.flush();
      if ((line = lines.readLine()) == null || line.strip().equals("/quit")) {
        return 0;
      }
      if (line.isBlank()) {
        continue;
      }
      AgentOutput output = orchestrator.runText(line.strip(), init);
      if (output.isFailed() && output.error() != null) {
        out.println("Agent failed (" + output.error().status() + "): " + output.error().message());
        return 1;
      }
      out.println("orchestrator> " + output.text());
      init = AgentInit.ofSnapshot(Objects.requireNonNull(output.snapshotId()));
    }
  }
}
