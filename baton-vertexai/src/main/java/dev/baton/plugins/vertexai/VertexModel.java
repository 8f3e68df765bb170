package dev.baton.plugins.vertexai;

import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.plugins.anthropic.internal.MaxTokens;
import dev.baton.plugins.anthropic.internal.MessagesCall;
import dev.baton.plugins.anthropic.internal.MessagesRequestMapper;
import dev.baton.plugins.googleai.internal.GeminiCall;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The function behind one {@code vertexai/<model>} action. A Claude model ({@code claude-...}) is
 * the {@code anthropic} publisher's, reached through {@code :rawPredict} and {@code
 * :streamRawPredict} with the Messages API body, {@code anthropic_version} in place of {@code
 * model}; any other model is the {@code google} publisher's, reached through Gemini's {@code
 * :generateContent} and {@code :streamGenerateContent?alt=sse}. Each call authorizes itself with
 * the plugin's credentials. Thread-safe: it holds only immutable settings.
 */
final class VertexModel implements ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> {
  /** The Messages API version Vertex AI's Claude models take in the body. */
  static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

  private final String model;
  private final Settings settings;
  private final GoogleAuth auth;
  private final HttpCalls http;

  /** What every model of one plugin instance shares. */
  record Settings(
      @Nullable URI baseUrl,
      @Nullable String project,
      String location,
      @Nullable Integer maxTokens) {
    /** The model's address, up to the method: {@code .../publishers/<publisher>/models/<model>}. */
    String modelUrl(String project, String publisher, String model) {
      String base =
          baseUrl != null
              ? baseUrl.toString()
              : location.equals("global")
                  ? "https://aiplatform.googleapis.com"
                  : "https://" + location + "-aiplatform.googleapis.com";
      return (base.endsWith("/") ? base : base + "/")
          + "v1/projects/"
          + project
          + "/locations/"
          + location
          + "/publishers/"
          + publisher
          + "/models/"
          + model;
    }
  }

  VertexModel(String model, Settings settings, GoogleAuth auth, HttpCalls http) {
    this.model = model;
    this.settings = settings;
    this.auth = auth;
    this.http = http;
  }

  static boolean isClaude(String model) {
    return model.startsWith("claude-");
  }

  @Override
  public ModelResponse apply(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    GoogleCredentials credentials = auth.credentials(context);
    String project = project(credentials);
    boolean claude = isClaude(model);
    String url = settings.modelUrl(project, claude ? "anthropic" : "google", model);
    // Asked for each request, not once per call: a paused Claude turn is continued with requests
    // of its own, and the library refreshes a token that would expire meanwhile.
    Function<String, HttpRequest.Builder> authorized =
        method -> authorized(url + method, auth.headers(context, credentials, URI.create(url)));
    if (!claude) {
      return GeminiCall.run(
          context,
          request,
          stream,
          http,
          VertexAI.PROVIDER,
          streaming ->
              authorized.apply(streaming ? ":streamGenerateContent?alt=sse" : ":generateContent"));
    }
    int maxTokens =
        settings.maxTokens() != null ? settings.maxTokens() : MaxTokens.defaultFor(model);
    ObjectNode body =
        MessagesRequestMapper.toBody(request, maxTokens)
            .put("anthropic_version", ANTHROPIC_VERSION);
    return MessagesCall.run(
        context,
        body,
        stream,
        http,
        VertexAI.PROVIDER,
        streaming -> authorized.apply(streaming ? ":streamRawPredict" : ":rawPredict"));
  }

  private String project(GoogleCredentials credentials) {
    String project = settings.project() != null ? settings.project() : credentials.getProjectId();
    if (project == null || project.isBlank()) {
      throw new BatonException(
          Status.FAILED_PRECONDITION,
          "no Google Cloud project: set GOOGLE_CLOUD_PROJECT, or pass one with"
              + " VertexAI.builder().project(...)",
          null,
          false,
          null);
    }
    // The builder checks its own; GOOGLE_CLOUD_PROJECT and the credentials' are checked here, as
    // the project becomes a path segment of a request that carries a token.
    if (!VertexAI.isProjectId(project)) {
      throw new BatonException(
          Status.FAILED_PRECONDITION,
          "\""
              + project
              + "\" (from GOOGLE_CLOUD_PROJECT or the credentials) is not a Google Cloud"
              + " project ID",
          null,
          false,
          null);
    }
    return project;
  }

  private static HttpRequest.Builder authorized(String url, Map<String, List<String>> headers) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url));
    headers.forEach((name, values) -> values.forEach(value -> builder.header(name, value)));
    return builder;
  }
}
