package dev.baton.samples.mcpagents;

import dev.baton.Baton;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ErrorInfo;
import dev.baton.mcp.Mcp;
import dev.baton.mcp.McpClient;
import dev.baton.mcp.McpServer;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.server.BatonServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The sample's entry point, in one of three modes:
 *
 * <ul>
 *   <li>{@code ask [folder] [question…]}, the default: {@code folderGuide} answers the question
 *       about the folder (default: the current one) with the MCP filesystem server's tools, or,
 *       without a question, each line read from standard input, as one conversation;
 *   <li>{@code serve-stdio [folder]}: serves {@code researcher} as an MCP tool on standard input
 *       and output, for a desktop client or the MCP Inspector to start;
 *   <li>{@code serve-http [folder]}: serves it over streamable HTTP at {@code
 *       http://127.0.0.1:8080/mcp} ({@code BATON_PORT} picks another port) until stopped.
 * </ul>
 *
 * The model is Gemini when {@code GEMINI_API_KEY} is set ({@code BATON_MODEL} overrides the model),
 * a scripted demo model otherwise. The filesystem server is the published npm package, started with
 * {@code npx} on first use and stopped when Baton closes.
 */
public final class McpAgents {
  /** How the filesystem server starts, before the folder it may read: the npm package, by npx. */
  static final List<String> FILESYSTEM_SERVER =
      List.of("npx", "-y", "@modelcontextprotocol/server-filesystem");

  private McpAgents() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    String mode = args.length > 0 ? args[0] : "ask";
    Path folder = Path.of(args.length > 1 ? args[1] : ".").toRealPath();
    Map<String, String> env = System.getenv();
    switch (mode) {
      case "ask" -> {
        Baton baton = baton(env, FILESYSTEM_SERVER, folder, System.out);
        try (baton) {
          List<String> question =
              Arrays.asList(args).subList(Math.min(2, args.length), args.length);
          if (question.isEmpty()) {
            chat(baton, System.out);
          } else {
            ask(baton, String.join(" ", question), null, System.out);
          }
        }
      }
      case "serve-stdio" -> {
        // Standard output carries MCP's messages: the banner goes to standard error.
        Baton baton = baton(env, FILESYSTEM_SERVER, folder, System.err);
        try (baton;
            McpServer mcp = mcpServer(baton)) {
          mcp.serveStdio();
        }
      }
      case "serve-http" -> {
        Baton baton = baton(env, FILESYSTEM_SERVER, folder, System.out);
        McpServer mcp = mcpServer(baton);
        int port = Integer.parseInt(env.getOrDefault("BATON_PORT", "8080"));
        BatonServer server = serveHttp(mcp, "127.0.0.1", port, System.out);
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      server.close();
                      mcp.close();
                      baton.close();
                    },
                    "baton-sample-stop"));
        server.join();
      }
      default -> {
        System.err.println(
            "usage: McpAgents [ask [folder] [question…] | serve-stdio [folder] | serve-http"
                + " [folder]]");
        System.exit(2);
      }
    }
  }

  /**
   * A Baton with the filesystem server as the {@code fs} plugin, started by {@code
   * filesystemServer} with {@code folder} as the one folder it may read, and the sample's agents.
   * It says which model it uses on {@code banner}.
   */
  static Baton baton(
      Map<String, String> env, List<String> filesystemServer, Path folder, PrintStream banner) {
    List<String> fsArgs = new ArrayList<>(filesystemServer.subList(1, filesystemServer.size()));
    fsArgs.add(folder.toString());
    McpClient fs =
        Mcp.client("fs").stdio(filesystemServer.getFirst(), fsArgs.toArray(String[]::new)).build();
    Baton.Builder builder = Baton.builder().experimental().plugin(fs);
    String key = env.get("GEMINI_API_KEY");
    String model = DemoModel.NAME;
    if (key != null && !key.isBlank()) {
      builder.plugin(GoogleAI.builder().apiKey(key.strip()).build());
      model = env.getOrDefault("BATON_MODEL", "googleai/gemini-flash-latest");
    }
    Baton baton = builder.build();
    if (model.equals(DemoModel.NAME)) {
      DemoModel.define(baton);
    }
    SampleAgents.define(baton, model, folder);
    banner.println("Baton mcp-agents sample, model " + model + ", folder " + folder);
    return baton;
  }

  /** The MCP server of the sample: the researcher agent as an MCP tool. */
  static McpServer mcpServer(Baton baton) {
    return Mcp.server(baton).agents(SampleAgents.RESEARCHER).build();
  }

  /**
   * Serves {@code mcp} over streamable HTTP; the caller closes the HTTP server, then {@code mcp},
   * then Baton.
   */
  static BatonServer serveHttp(McpServer mcp, String host, int port, PrintStream out) {
    BatonServer server = BatonServer.start(host, port, mcp.handler());
    String endpoint = server.uri().resolve(mcp.path()).toString();
    out.println("MCP over streamable HTTP at " + endpoint);
    out.println(
        "Try: npx @modelcontextprotocol/inspector --cli "
            + endpoint
            + " --transport http --method tools/list");
    return server;
  }

  /** Answers each line of standard input in one conversation, until the input ends. */
  private static void chat(Baton baton, PrintStream out) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("Ask about the folder (Ctrl-D to quit).");
    @Nullable SessionState state = null;
    out.print("> ");
    out.flush();
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.isBlank()) {
        state = ask(baton, line, state, out);
      }
      out.print("> ");
      out.flush();
    }
    out.println();
  }

  /**
   * Asks {@code folderGuide} one question, continuing the conversation in {@code state} (null for a
   * new one); prints the MCP tools it called, then its answer, and returns the conversation.
   */
  static @Nullable SessionState ask(
      Baton baton, String question, @Nullable SessionState state, PrintStream out) {
    AgentOutput output =
        baton
            .agent(SampleAgents.FOLDER_GUIDE)
            .runText(question, state == null ? AgentInit.NEW : AgentInit.ofState(state));
    ErrorInfo error = output.error();
    if (error != null) {
      out.println("The turn failed: " + error.status() + ": " + error.message());
      return state;
    }
    SessionState next = output.state();
    if (next != null) {
      List<Message> messages = next.messages();
      int before = state == null ? 0 : state.messages().size();
      for (Message message : messages.subList(Math.min(before, messages.size()), messages.size())) {
        for (ToolRequestPart call : message.toolRequests()) {
          out.println("  [" + call.toolRequest().name() + "] " + call.toolRequest().input());
        }
      }
    }
    out.println(output.text());
    return next;
  }
}
