package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.server.BatonHandler;
import dev.baton.server.BatonServer;
import java.io.PrintStream;
import java.util.Map;

/**
 * Serves the sample's agents over HTTP on {@code 127.0.0.1:8080} ({@code BATON_PORT} picks another
 * port) until the process is stopped; a stop (Ctrl-C) is graceful. The model is Gemini when {@code
 * GEMINI_API_KEY} is set, a scripted demo model otherwise. Sessions are kept in {@code
 * .genkit/snapshots} ({@code BATON_SNAPSHOT_DIR} picks another folder), or in PostgreSQL when
 * {@code BATON_POSTGRES_URL} is set (see {@link SessionStores}). The task console is at {@code
 * /console/}. See the README for curl examples.
 */
public final class BasicAgentsServer {
  private BasicAgentsServer() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    SessionStores stores = SessionStores.choose(env);
    BatonServer server =
        start(
            env,
            stores,
            "127.0.0.1",
            Integer.parseInt(env.getOrDefault("BATON_PORT", "8080")),
            System.out);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stores.close();
                },
                "baton-sample-stop"));
    server.join();
  }

  /**
   * Defines the agents, their sessions in {@code stores}, and starts serving them; the caller
   * closes the server, then the stores.
   */
  static BatonServer start(
      Map<String, String> env, SessionStores stores, String host, int port, PrintStream out) {
    String key = env.get("GEMINI_API_KEY");
    Baton.Builder builder = Baton.builder().experimental();
    String model;
    if (key != null && !key.isBlank()) {
      builder.plugin(GoogleAI.builder().apiKey(key.strip()).build());
      model = env.getOrDefault("BATON_MODEL", "googleai/gemini-flash-latest");
    } else {
      model = DemoModel.NAME;
    }
    Baton baton = builder.build();
    if (model.equals(DemoModel.NAME)) {
      DemoModel.define(baton);
    }
    ServedAgents.define(baton, model, stores);
    BatonServer server =
        BatonServer.start(
            BatonHandler.builder(baton).allAgents().console("/console").build(), host, port);
    out.println("Baton basic-agents-server, model " + model + ", sessions " + stores.description());
    for (String route :
        new String[] {
          "/agents/chat",
          "/agents/chat/getSnapshot",
          "/agents/chat/waitForSnapshot",
          "/agents/chat/abort",
          "/agents/statelessChat",
          "/agents/researcher (and its companions)",
          "/agents/coordinator (and its companions)",
        }) {
      out.println("  POST " + server.uri() + route);
    }
    out.println("Task console (this machine only): " + server.uri() + "/console/");
    out.println(
        "Try: curl -s "
            + server.uri()
            + "/agents/chat -H 'Content-Type: application/json'"
            + " -d '{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"Where in"
            + " Portugal?\"}]}}}'");
    return server;
  }
}
