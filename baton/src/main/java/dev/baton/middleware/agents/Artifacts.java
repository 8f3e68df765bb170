package dev.baton.middleware.agents;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.middleware.agents.SystemText;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Gives the model tools over the session's artifacts, and lists them in the system prompt.
 *
 * <ul>
 *   <li>{@code read_artifact} reads an artifact's text by name;
 *   <li>{@code write_artifact} (unless {@link #readonly}) creates or replaces one;
 *   <li>an {@code <artifacts>} block naming every artifact, with its size and source, is put in the
 *       system prompt and refreshed on every tool-loop iteration.
 * </ul>
 *
 * <p>Artifacts live on the agent session, so the tools work only inside an agent invocation;
 * elsewhere they answer that there is no active session and the listing is empty.
 *
 * @param readonly offer only {@code read_artifact}
 */
public record Artifacts(
    @JsonPropertyDescription(
            "When true, only read_artifact is provided and the model cannot create or update"
                + " artifacts.")
        @Defaulted
        boolean readonly)
    implements Middleware {

  private static final String MARKER = "artifacts-listing";
  private static final String NO_SESSION = "Error: no active session.";
  // Stateless (each call finds its session on its context), so built once rather than per call.
  private static final Tool<ReadInput, ReadOutput> READ = readTool();
  private static final Tool<WriteInput, WriteOutput> WRITE = writeTool();

  /** {@code read_artifact} and {@code write_artifact}. */
  public static Artifacts readWrite() {
    return new Artifacts(false);
  }

  /** {@code read_artifact} only: the model cannot create or update artifacts. */
  public static Artifacts readOnly() {
    return new Artifacts(true);
  }

  record ReadInput(@JsonPropertyDescription("The name of the artifact to read.") String name) {}

  record ReadOutput(String name, String content, boolean found) {}

  record WriteInput(
      @JsonPropertyDescription("A unique name for the artifact (e.g. a filename like report.md).")
          String name,
      @JsonPropertyDescription("The full text content of the artifact.") String content) {}

  record WriteOutput(String status) {}

  @Override
  public String name() {
    return "genkit-middleware-exp/artifacts";
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    Hooks.Builder hooks = Hooks.builder().tool(READ);
    if (!readonly) {
      hooks.tool(WRITE);
    }
    return hooks
        .wrapGenerate(
            (ctx, params, next) ->
                next.apply(
                    ctx,
                    params.withRequest(
                        SystemText.inject(
                            params.request(),
                            MARKER,
                            SystemText.block(MARKER, listing(Session.from(ctx)))))))
        .build();
  }

  private static Tool<ReadInput, ReadOutput> readTool() {
    return Tool.create(
        "read_artifact",
        "Reads the content of a named artifact from the session. Use this to inspect artifacts"
            + " produced by sub-agents or previously created artifacts.",
        ReadInput.class,
        ReadOutput.class,
        (ctx, input) -> {
          Optional<Session> session = Session.from(ctx.context());
          if (session.isEmpty()) {
            return new ReadOutput(input.name(), NO_SESSION, false);
          }
          return session.get().artifacts().stream()
              .filter(a -> input.name().equals(a.name()))
              .findFirst()
              .map(a -> new ReadOutput(input.name(), a.text(), true))
              .orElseGet(
                  () ->
                      new ReadOutput(
                          input.name(), "Artifact \"" + input.name() + "\" not found.", false));
        });
  }

  private static Tool<WriteInput, WriteOutput> writeTool() {
    return Tool.create(
        "write_artifact",
        "Creates or updates a named artifact in the session. If an artifact with the same name"
            + " already exists, it is replaced. Use this to produce files, reports, code, or"
            + " other deliverables.",
        WriteInput.class,
        WriteOutput.class,
        (ctx, input) -> {
          Optional<Session> session = Session.from(ctx.context());
          if (session.isEmpty()) {
            return new WriteOutput(NO_SESSION);
          }
          session.get().addArtifact(Artifact.text(input.name(), input.content()));
          return new WriteOutput("Artifact \"" + input.name() + "\" saved successfully.");
        });
  }

  /** The {@code <artifacts>} block, in session order. */
  private static String listing(Optional<Session> session) {
    List<Artifact> artifacts = session.map(Session::artifacts).orElse(List.of());
    if (artifacts.isEmpty()) {
      return "<artifacts>\nNo artifacts are currently available in the session.\n</artifacts>";
    }
    StringBuilder text =
        new StringBuilder(
            "<artifacts>\nThe following artifacts are available in the session. Use the"
                + " read_artifact tool to view their content.\n");
    for (Artifact artifact : artifacts) {
      text.append("  - ").append(artifact.name() == null ? "(unnamed)" : artifact.name());
      String content = artifact.text();
      if (!content.isEmpty()) {
        text.append(" (").append(content.codePointCount(0, content.length())).append(" chars)");
      }
      String source = source(artifact);
      if (source != null) {
        text.append(" [from: ").append(source).append(']');
      }
      text.append('\n');
    }
    return text.append("</artifacts>").toString();
  }

  private static @Nullable String source(Artifact artifact) {
    var metadata = artifact.metadata();
    return metadata != null && metadata.path("source").isString()
        ? metadata.path("source").asString()
        : null;
  }
}
