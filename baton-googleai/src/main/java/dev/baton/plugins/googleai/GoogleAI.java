package dev.baton.plugins.googleai;

import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.PluginHttp;
import dev.baton.plugins.googleai.internal.GeminiModels;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The Google AI plugin: Gemini API models under the {@code googleai/} namespace.
 *
 * <p>Any name {@code googleai/<model>} resolves, on first use, to a model that calls {@code
 * <baseUrl>/<apiVersion>/models/<model>:generateContent}; nothing is listed up front, so new Gemini
 * models work without a Baton release. The API key is sent in the {@code x-goog-api-key} header.
 * Without a key the plugin still starts; each call then fails with {@code FAILED_PRECONDITION}
 * naming the environment variables.
 *
 * <p>The API version defaults to {@code v1beta}: function declarations with {@code
 * parametersJsonSchema}, {@code responseJsonSchema}, thinking config, function call ids and thought
 * signatures reach {@code v1beta} first, and Google's own SDKs use it. Pass {@code v1} to stay on
 * the stable surface.
 *
 * <p>Immutable and thread-safe; one instance serves concurrent calls.
 */
public final class GoogleAI implements Plugin {
  private static final Pattern MODEL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  /** The plugin's name and model namespace. */
  public static final String NAME = "googleai";

  /** The Gemini API's address. */
  public static final URI DEFAULT_BASE_URL =
      URI.create("https://generativelanguage.googleapis.com");

  /** The API version used unless the builder names another. */
  public static final String DEFAULT_API_VERSION = "v1beta";

  /** How long a whole model call (request, and the full answer or stream) may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** How long one read of a response body may wait for data by default. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(2);

  /** How messages name the other side. */
  static final String PROVIDER = "Gemini API";

  private final @Nullable String apiKey;
  private final URI baseUrl;
  private final String apiVersion;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final HttpClient httpClient;

  /**
   * A plugin with the defaults, its key read from {@code GEMINI_API_KEY} or else {@code
   * GOOGLE_API_KEY}.
   */
  public GoogleAI() {
    this(builder());
  }

  private GoogleAI(Builder builder) {
    this.apiKey =
        builder.apiKey != null
            ? builder.apiKey
            : firstNonBlank(builder.environment, List.of("GEMINI_API_KEY", "GOOGLE_API_KEY"));
    this.baseUrl = builder.baseUrl;
    this.apiVersion = builder.apiVersion;
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

  /** Adds a resolver that serves every {@code googleai/<model>} model name. */
  @Override
  public void init(Registry registry) {
    HttpCalls http = new HttpCalls(httpClient, timeout, idleTimeout, PROVIDER);
    String base = baseUrl.toString();
    String endpoint = (base.endsWith("/") ? base : base + "/") + apiVersion;
    String prefix = NAME + "/";
    registry.addResolver(
        (type, name) -> {
          if (type != ActionType.MODEL || !name.startsWith(prefix) || name.equals(prefix)) {
            return null;
          }
          String model = name.substring(prefix.length());
          // The name becomes a path segment of a request that carries the key: nothing in it may
          // change which endpoint the request reaches.
          if (!MODEL_NAME.matcher(model).matches()) {
            throw BatonException.invalidArgument(
                "invalid Gemini model name \"%s\": use letters, digits, '.', '_' and '-' only",
                model);
          }
          return Model.create(
              name,
              ModelInfo.of("Google AI - " + model, GeminiModels.SUPPORTS),
              new GeminiClient(model, apiKey, endpoint, http));
        });
  }

  private static @Nullable String firstNonBlank(
      Function<String, @Nullable String> environment, List<String> names) {
    for (String name : names) {
      String value = environment.apply(name);
      if (value != null && !value.isBlank()) {
        return value.strip();
      }
    }
    return null;
  }

  /** Configures a {@link GoogleAI} plugin. Not thread-safe; build once. */
  public static final class Builder {
    private @Nullable String apiKey;
    private URI baseUrl = DEFAULT_BASE_URL;
    private String apiVersion = DEFAULT_API_VERSION;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private @Nullable HttpClient httpClient;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The API key; when not set, {@code GEMINI_API_KEY} and then {@code GOOGLE_API_KEY}. */
    public Builder apiKey(@Nullable String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Where the Gemini API is served, for a proxy or a test server. */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = PluginHttp.httpUrl(baseUrl, "baseUrl");
      return this;
    }

    /** The API version path segment, {@code v1beta} (the default) or {@code v1}. */
    public Builder apiVersion(String apiVersion) {
      if (Objects.requireNonNull(apiVersion, "apiVersion").isBlank()) {
        throw new IllegalArgumentException("apiVersion must not be blank");
      }
      this.apiVersion = apiVersion.strip();
      return this;
    }

    /**
     * How long one model call may take, from sending the request until the whole answer (or the end
     * of the stream) has arrived; past it the call fails with {@code DEADLINE_EXCEEDED}. {@link
     * #DEFAULT_TIMEOUT} (10 minutes) unless set.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = PluginHttp.positive(timeout, "timeout");
      return this;
    }

    /**
     * How long the server may go quiet in the middle of an answer: once the response headers have
     * arrived, a read of the body (the next SSE event of a stream, say) that waits longer than this
     * for data fails the call with {@code DEADLINE_EXCEEDED}, however much of the overall {@link
     * #timeout} is left. {@link #DEFAULT_IDLE_TIMEOUT} (2 minutes) unless set. The wait for the
     * response headers counts against the overall timeout only. A model that thinks silently for
     * longer than this before its next event fails, so raise it for such models.
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

    public GoogleAI build() {
      return new GoogleAI(this);
    }
  }
}
