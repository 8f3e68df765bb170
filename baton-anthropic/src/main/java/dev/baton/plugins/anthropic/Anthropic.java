package dev.baton.plugins.anthropic;

import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.core.ActionType;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.PluginHttp;
import dev.baton.plugins.anthropic.internal.MessagesModels;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The Anthropic plugin: Claude models through the Messages API, under the {@code anthropic/}
 * namespace.
 *
 * <p>Any name {@code anthropic/<model>} resolves, on first use, to a model that posts to {@code
 * <baseUrl>/v1/messages} with {@code model} set to everything after the slash ({@code
 * anthropic/claude-sonnet-4-5} asks for {@code claude-sonnet-4-5}); nothing is listed up front, so
 * new Claude models work without a Baton release. The key comes from {@link Builder#apiKey} or else
 * the {@code ANTHROPIC_API_KEY} environment variable, and goes in the {@code x-api-key} header with
 * {@code anthropic-version: 2023-06-01}. Without a key the plugin still starts; each call then
 * fails with {@code FAILED_PRECONDITION}.
 *
 * <p>Immutable and thread-safe; one instance serves concurrent calls.
 */
public final class Anthropic implements Plugin {
  /** The plugin's name and model namespace. */
  public static final String NAME = "anthropic";

  /** The Messages API's address. */
  public static final URI DEFAULT_BASE_URL = URI.create("https://api.anthropic.com");

  /** The API version every request names in its {@code anthropic-version} header. */
  public static final String API_VERSION = "2023-06-01";

  /** How long a whole model call (request, and the full answer or stream) may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** How long one read of a response body may wait for data by default. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(2);

  /** How messages name the other side. */
  static final String PROVIDER = "Anthropic API";

  private final @Nullable String apiKey;
  private final URI baseUrl;
  private final Map<String, String> headers;
  private final @Nullable Integer maxTokens;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final HttpClient httpClient;

  /** A plugin with the defaults, its key read from {@code ANTHROPIC_API_KEY}. */
  public Anthropic() {
    this(builder());
  }

  private Anthropic(Builder builder) {
    String fromEnvironment = builder.environment.apply("ANTHROPIC_API_KEY");
    this.apiKey =
        builder.apiKey != null
            ? builder.apiKey
            : fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.strip();
    this.baseUrl = builder.baseUrl;
    this.headers = Map.copyOf(builder.headers);
    this.maxTokens = builder.maxTokens;
    this.timeout = builder.timeout;
    this.idleTimeout = builder.idleTimeout;
    this.httpClient = builder.httpClient != null ? builder.httpClient : PluginHttp.defaultClient();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The address requests go to, {@code /v1/messages} appended. */
  public URI baseUrl() {
    return baseUrl;
  }

  /** Adds a resolver that serves every {@code anthropic/<model>} model name. */
  @Override
  public void init(Registry registry) {
    String base = baseUrl.toString();
    MessagesClient.Settings settings =
        new MessagesClient.Settings(
            URI.create((base.endsWith("/") ? base : base + "/") + "v1/messages"),
            apiKey,
            headers,
            maxTokens);
    HttpCalls http = new HttpCalls(httpClient, timeout, idleTimeout, PROVIDER);
    String prefix = NAME + "/";
    registry.addResolver(
        (type, name) -> {
          String model = name.startsWith(prefix) ? name.substring(prefix.length()) : "";
          if (type != ActionType.MODEL || model.isBlank()) {
            return null;
          }
          return Model.create(
              name,
              ModelInfo.of("Anthropic - " + model, MessagesModels.supports(model)),
              new MessagesClient(model, settings, http));
        });
  }

  /** Configures an {@link Anthropic} plugin. Not thread-safe; build once. */
  public static final class Builder {
    private @Nullable String apiKey;
    private URI baseUrl = DEFAULT_BASE_URL;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Integer maxTokens;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private @Nullable HttpClient httpClient;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The API key; when not set, {@code ANTHROPIC_API_KEY}. */
    public Builder apiKey(@Nullable String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /**
     * Where the Messages API is served, for a proxy, a gateway or a test server; requests go to
     * {@code <baseUrl>/v1/messages}. {@link #DEFAULT_BASE_URL} unless set.
     */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = PluginHttp.httpUrl(baseUrl, "baseUrl");
      return this;
    }

    /**
     * A header sent with every request, such as {@code anthropic-beta} to turn on a beta feature.
     * The key and version headers are the plugin's own.
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      if (name.equalsIgnoreCase("x-api-key") || name.equalsIgnoreCase("anthropic-version")) {
        throw new IllegalArgumentException(name + " is set by the plugin; use apiKey(...)");
      }
      headers.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * The {@code max_tokens} of every call whose config sets no {@code maxOutputTokens}. Unless
     * set, each model gets a default of its own: its limit for the Claude 3 and 3.5 models, 16384
     * for later ones.
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
     * of the stream) has arrived; past it the call fails with {@code DEADLINE_EXCEEDED}. {@link
     * #DEFAULT_TIMEOUT} (10 minutes) unless set. A continued {@code pause_turn} is a call of its
     * own.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = PluginHttp.positive(timeout, "timeout");
      return this;
    }

    /**
     * How long the server may go quiet in the middle of an answer: once the response headers have
     * arrived, a read of the body (the next SSE event of a stream, say) that waits longer than this
     * for data fails the call with {@code DEADLINE_EXCEEDED}. {@link #DEFAULT_IDLE_TIMEOUT} (2
     * minutes) unless set.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = PluginHttp.positive(idleTimeout, "idleTimeout");
      return this;
    }

    /** The client to send requests with; by default the plugin makes its own. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /** Where environment variables are read from; tests replace {@link System#getenv}. */
    Builder environment(Function<String, @Nullable String> environment) {
      this.environment = environment;
      return this;
    }

    public Anthropic build() {
      return new Anthropic(this);
    }
  }
}
