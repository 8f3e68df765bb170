package dev.baton.devtools;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import dev.baton.otel.BatonTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import tools.jackson.databind.JsonNode;

/**
 * The application the dev tools' tests serve: a flow {@code echo}, a streaming flow {@code count},
 * a tool, a model {@code echoModel} that answers {@code echo: <last user text> (turn <n>)} (n
 * counts the user messages it was sent, so a resumed session shows), a server-managed agent {@code
 * serverAgent} over it, and the bundled middleware, which every instance registers by name. Run as
 * a program ({@link #main}) it is what {@code genkit start -- java ...} starts in the CLI test.
 */
final class DevApp {
  private DevApp() {}

  static Baton define(OpenTelemetry openTelemetry) {
    Baton baton = Baton.builder().experimental().openTelemetry(openTelemetry).build();
    baton.defineFlow("echo", String.class, String.class, (ctx, in) -> "echo: " + in);
    baton.defineStreamingFlow(
        "count",
        Integer.class,
        String.class,
        JsonNode.class,
        (ctx, n, stream) -> {
          for (int i = 0; i < n; i++) {
            stream.onChunk(Json.object().put("count", i));
          }
          return "done: " + n;
        });
    baton.defineTool(
        "shout",
        "Upper-cases its input.",
        String.class,
        String.class,
        (ctx, in) -> in.toUpperCase());
    baton.defineModel(
        "echoModel",
        ModelInfo.full("Echo"),
        (ctx, request, stream) -> {
          long turn = request.messages().stream().filter(m -> m.role() == Role.USER).count();
          String last =
              request.messages().stream()
                  .filter(m -> m.role() == Role.USER)
                  .reduce((a, b) -> b)
                  .map(Message::text)
                  .orElse("");
          String answer = "echo: " + last + " (turn " + turn + ")";
          stream.onChunk(ModelResponseChunk.text("echo: "));
          stream.onChunk(ModelResponseChunk.text(answer.substring("echo: ".length())));
          return ModelResponse.of(Message.model(answer), FinishReason.STOP);
        });
    baton.defineAgent(
        "serverAgent",
        InlinePrompt.builder().model("echoModel").build(),
        AgentOptions.builder()
            .description("Echoes, remembering the session.")
            .sessionStore(InMemorySessionStore.create())
            .build());
    return baton;
  }

  /** Serves the app to Genkit's CLI until the process is stopped. */
  public static void main(String[] args) throws InterruptedException {
    BatonTelemetry telemetry = BatonTelemetry.fromEnvironment();
    DevTools devTools = DevTools.start(define(telemetry));
    System.out.println(
        "dev app "
            + (devTools.isRunning()
                ? "serving " + devTools.url().orElseThrow()
                : "not in dev mode"));
    // Until SIGTERM: the shutdown hook removes the runtime file.
    Thread.currentThread().join();
  }
}
