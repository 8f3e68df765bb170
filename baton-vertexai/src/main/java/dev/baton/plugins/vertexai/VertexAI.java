package dev.baton.plugins.vertexai;

import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.PluginHttp;
import dev.baton.plugins.anthropic.Anthropic;
import dev.baton.plugins.anthropic.internal.MessagesModels;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.googleai.internal.GeminiModels;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The Vertex AI plugin: Gemini and Claude models on Google Cloud, under the {@code vertexai/}
 * namespace, authorized with Google Cloud credentials instead of an API key.
 *
 * <p>Any name {@code vertexai/<model>} resolves, on first use, to a model of the project and
 * location the plugin is configured with; nothing is listed up front. A name that starts with
 * {@code claude-} (such as {@code vertexai/claude-sonnet-4-5@20250929}) is one of Anthropic's
 * models on Vertex AI, spoken to in the Messages API's shape, as {@link Anthropic} does; any other
 * (such as {@code vertexai/gemini-2.5-flash}) is one of Google's, spoken to in Gemini's shape, as
 * {@link GoogleAI} does.
 *
 * <p>The credentials are {@linkplain GoogleCredentials#getApplicationDefault() Application Default
 * Credentials} unless {@link Builder#credentials} gives others, loaded on the first call; tokens
 * are fetched, cached and refreshed before they expire by Google's auth library. Without
 * credentials, or without a project, the plugin still starts; each call then fails with {@code
 * FAILED_PRECONDITION}.
 *
 * <p>Immutable and thread-safe; one instance serves concurrent calls.
 */
public final class VertexAI implements Plugin {
  private static final Pattern MODEL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]*");
  private static final Pattern LOCATION = Pattern.compile("[a-z0-9][a-z0-9-]*");

  /**
   * A project ID as Google Cloud allows them, a legacy domain-scoped one ({@code example.com:p})
   * too.
   */
  private static final Pattern PROJECT_ID =
      Pattern.compile("([a-z0-9][a-z0-9.-]*[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]");

  /** The plugin's name and model namespace. */
  public static final String NAME = "vertexai";

  /** The location used unless the builder or {@code GOOGLE_CLOUD_LOCATION} names another. */
  public static final String DEFAULT_LOCATION = "global";

  /** How long a whole model call (request, and the full answer or stream) may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** How long one read of a response body may wait for data by default. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(2);

  /** How messages name the other side. */
  static final String PROVIDER = "Vertex AI";

  private final VertexModel.Settings settings;
  private final GoogleAuth auth;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final HttpClient httpClient;

  /**
   * A plugin with the defaults: Application Default Credentials, the project from {@code
   * GOOGLE_CLOUD_PROJECT} (or the credentials' own), the location from {@code
   * GOOGLE_CLOUD_LOCATION} or else {@value #DEFAULT_LOCATION}.
   */
  public VertexAI() {
    this(builder());
  }

  private VertexAI(Builder builder) {
    String location =
        builder.location != null
            ? builder.location
            : Objects.requireNonNullElse(
                nonBlank(builder.environment.apply("GOOGLE_CLOUD_LOCATION")), DEFAULT_LOCATION);
    if (!LOCATION.matcher(location).matches()) {
      throw new IllegalArgumentException("invalid Google Cloud location: " + location);
    }
    this.settings =
        new VertexModel.Settings(
            builder.baseUrl,
            builder.project != null
                ? builder.project
                : nonBlank(builder.environment.apply("GOOGLE_CLOUD_PROJECT")),
            location,
            builder.maxTokens);
    this.timeout = builder.timeout;
    this.idleTimeout = builder.idleTimeout;
    GoogleCredentials credentials = builder.credentials;
    this.auth =
        new GoogleAuth(credentials != null ? () -> credentials : builder.loader, builder.timeout);
    this.httpClient = builder.httpClient != null ? builder.httpClient : PluginHttp.defaultClient();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Adds a resolver that serves every {@code vertexai/<model>} model name. */
  @Override
  public void init(Registry registry) {
    HttpCalls http = new HttpCalls(httpClient, timeout, idleTimeout, PROVIDER);
    String prefix = NAME + "/";
    registry.addResolver(
        (type, name) -> {
          if (type != ActionType.MODEL || !name.startsWith(prefix) || name.equals(prefix)) {
            return null;
          }
          String model = name.substring(prefix.length());
          // The name becomes a path segment of a request that carries a token: nothing in it may
          // change which endpoint the request reaches.
          if (!MODEL_NAME.matcher(model).matches()) {
            throw BatonException.invalidArgument(
                "invalid Vertex AI model name \"%s\": use letters, digits, '.', '_', '@' and '-'"
                    + " only",
                model);
          }
          ModelInfo.Supports supports =
              VertexModel.isClaude(model) ? MessagesModels.onVertexAI() : GeminiModels.SUPPORTS;
          return Model.create(
              name,
              ModelInfo.of("Vertex AI - " + model, supports),
              new VertexModel(model, settings, auth, http));
        });
  }

  /** Whether {@code project} is a project ID, safe to put in a request's path. */
  static boolean isProjectId(String project) {
    return PROJECT_ID.matcher(project).matches();
  }

  private static @Nullable String nonBlank(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** Configures a {@link VertexAI} plugin. Not thread-safe; build once. */
  public static final class Builder {
    private @Nullable String project;
    private @Nullable String location;
    private @Nullable GoogleCredentials credentials;
    private Callable<GoogleCredentials> loader = GoogleCredentials::getApplicationDefault;
    private @Nullable URI baseUrl;
    private @Nullable Integer maxTokens;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private @Nullable HttpClient httpClient;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /**
     * The Google Cloud project the models are called in; when not set, {@code
     * GOOGLE_CLOUD_PROJECT}, and else the credentials' own project (a service account key's).
     */
    public Builder project(String project) {
      String stripped = Objects.requireNonNull(project, "project").strip();
      if (!isProjectId(stripped)) {
        throw new IllegalArgumentException(
            "not a Google Cloud project ID (6 to 30 lowercase letters, digits and hyphens): "
                + project);
      }
      this.project = stripped;
      return this;
    }

    /**
     * The location the models are served from, such as {@code us-central1}, or {@code global}; when
     * not set, {@code GOOGLE_CLOUD_LOCATION}, and else {@value #DEFAULT_LOCATION}, which serves the
     * current Gemini and Claude models. Requests go to {@code
     * https://<location>-aiplatform.googleapis.com}, or to {@code
     * https://aiplatform.googleapis.com} for {@code global}.
     */
    public Builder location(String location) {
      if (Objects.requireNonNull(location, "location").isBlank()) {
        throw new IllegalArgumentException("location must not be blank");
      }
      this.location = location.strip();
      return this;
    }

    /**
     * The credentials to call Vertex AI with, such as a service account's or an impersonated one;
     * when not set, Application Default Credentials. Credentials without scopes are given the
     * {@code cloud-platform} scope.
     */
    public Builder credentials(GoogleCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /**
     * Where Vertex AI is served, for a private endpoint, a proxy or a test server, in place of the
     * location's address; requests go to {@code <baseUrl>/v1/projects/...}.
     */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = PluginHttp.httpUrl(baseUrl, "baseUrl");
      return this;
    }

    /**
     * The {@code max_tokens} of every Claude call whose config sets no {@code maxOutputTokens};
     * unless set, each Claude model gets the default {@link Anthropic} gives it. Gemini models need
     * none.
     */
    public Builder maxTokens(int maxTokens) {
      if (maxTokens < 1) {
        throw new IllegalArgumentException("maxTokens must be positive, got " + maxTokens);
      }
      this.maxTokens = maxTokens;
      return this;
    }

    /**
     * How long one model call may take, from sending the request until the whole answer (or the end
     * of the stream) has arrived; past it the call fails with {@code DEADLINE_EXCEEDED}. Loading
     * the credentials and fetching a token may each take as long again. {@link #DEFAULT_TIMEOUT}
     * (10 minutes) unless set.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = PluginHttp.positive(timeout, "timeout");
      return this;
    }

    /**
     * How long the server may go quiet in the middle of an answer: once the response headers have
     * arrived, a read of the body that waits longer than this for data fails the call with {@code
     * DEADLINE_EXCEEDED}. {@link #DEFAULT_IDLE_TIMEOUT} (2 minutes) unless set.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = PluginHttp.positive(idleTimeout, "idleTimeout");
      return this;
    }

    /** The client to send model requests with; by default the plugin makes its own. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /** Where environment variables are read from; tests replace {@link System#getenv}. */
    Builder environment(Function<String, @Nullable String> environment) {
      this.environment = environment;
      return this;
    }

    /** Where Application Default Credentials come from; tests replace the library's lookup. */
    Builder applicationDefaultCredentials(Callable<GoogleCredentials> loader) {
      this.loader = loader;
      return this;
    }

    public VertexAI build() {
      return new VertexAI(this);
    }
  }
}
