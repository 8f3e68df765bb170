package dev.baton.plugins.openai;

import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.core.ActionType;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.PluginHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A plugin for any server that speaks OpenAI's chat completions API: OpenAI itself, Ollama, vLLM,
 * the llama.cpp server, OpenRouter, Groq and others.
 *
 * <p>Any name {@code <namespace>/<model>} resolves, on first use, to a model that posts to {@code
 * <baseUrl>/chat/completions} with {@code model} set to everything after the first slash ({@code
 * openrouter/meta-llama/llama-3.3-70b} asks for {@code meta-llama/llama-3.3-70b}). The namespace is
 * the plugin's {@linkplain Builder#name(String) name}, {@code openai} by default; give each server
 * its own, and several coexist in one Baton instance.
 *
 * <p>Where the key comes from: {@link Builder#apiKey(String)}, or, when the builder sets no base
 * URL, the {@code OPENAI_API_KEY} environment variable together with {@code OPENAI_BASE_URL} (an
 * explicit base URL never picks up {@code OPENAI_API_KEY}, so that key is not sent to another
 * server by accident). The key goes in an {@code Authorization: Bearer} header; without one no such
 * header is sent, which is what local servers such as Ollama expect. Only OpenAI's own address
 * requires a key: without one the plugin still starts and each call fails with {@code
 * FAILED_PRECONDITION}.
 *
 * <p>Immutable and thread-safe; one instance serves concurrent calls.
 */
public final class OpenAICompatible implements Plugin {
  /** The default name and model namespace. */
  public static final String DEFAULT_NAME = "openai";

  /** OpenAI's API address. */
  public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

  /** How long a whole model call (request, and the full answer or stream) may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** How long one read of a response body may wait for data by default. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(2);

  /**
   * What a model is published as supporting unless the builder says otherwise: multi-turn chat,
   * tools, tool choice, system messages, media, and JSON output constrained by a schema.
   */
  public static final ModelInfo.Supports DEFAULT_SUPPORTS =
      ModelInfo.Supports.builder()
          .multiturn(true)
          .tools(true)
          .systemRole(true)
          .media(true)
          .output(List.of("text", "json"))
          .constrained("all")
          .toolChoice(true)
          .build();

  private final String name;
  private final URI baseUrl;
  private final @Nullable String apiKey;
  private final Map<String, String> headers;
  private final Duration timeout;
  private final Duration idleTimeout;
  private final HttpClient httpClient;
  private final ModelInfo.Supports supports;
  private final boolean strictJsonSchema;
  private final String maxTokensField;

  /**
   * A plugin named {@code openai} for {@code OPENAI_BASE_URL} (or OpenAI's address) with the key
   * from {@code OPENAI_API_KEY}.
   */
  public OpenAICompatible() {
    this(builder());
  }

  private OpenAICompatible(Builder builder) {
    this.name = builder.name;
    if (builder.baseUrl != null) {
      this.baseUrl = builder.baseUrl;
      this.apiKey = builder.apiKey;
    } else {
      String fromEnvironment = nonBlank(builder.environment.apply("OPENAI_BASE_URL"));
      this.baseUrl =
          fromEnvironment == null ? DEFAULT_BASE_URL : checked(URI.create(fromEnvironment));
      this.apiKey =
          builder.apiKey != null
              ? builder.apiKey
              : nonBlank(builder.environment.apply("OPENAI_API_KEY"));
    }
    this.headers = Map.copyOf(builder.headers);
    this.timeout = builder.timeout;
    this.idleTimeout = builder.idleTimeout;
    this.httpClient = builder.httpClient != null ? builder.httpClient : PluginHttp.defaultClient();
    this.supports = builder.supports;
    this.strictJsonSchema = builder.strictJsonSchema;
    // OpenAI deprecated max_tokens in favour of max_completion_tokens (its reasoning models reject
    // max_tokens), while Ollama, llama.cpp and older vLLM honour only max_tokens.
    this.maxTokensField =
        builder.maxTokensField != null
            ? builder.maxTokensField
            : "api.openai.com".equalsIgnoreCase(baseUrl.getHost())
                ? "max_completion_tokens"
                : "max_tokens";
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return name;
  }

  /** The address requests go to, {@code /chat/completions} appended. */
  public URI baseUrl() {
    return baseUrl;
  }

  /** Adds a resolver that serves every {@code <name>/<model>} model name. */
  @Override
  public void init(Registry registry) {
    String base = baseUrl.toString();
    URI endpoint = URI.create((base.endsWith("/") ? base : base + "/") + "chat/completions");
    boolean keyRequired = stripSlash(base).equals(stripSlash(DEFAULT_BASE_URL.toString()));
    ChatCompletionsClient.Settings settings =
        new ChatCompletionsClient.Settings(
            name, endpoint, apiKey, keyRequired, headers, strictJsonSchema, maxTokensField);
    // Errors name the plugin, never the host: public messages must not map the server's network.
    HttpCalls http = new HttpCalls(httpClient, timeout, idleTimeout, name);
    String prefix = name + "/";
    registry.addResolver(
        (type, action) -> {
          if (type != ActionType.MODEL || !action.startsWith(prefix) || action.equals(prefix)) {
            return null;
          }
          String model = action.substring(prefix.length());
          ModelInfo info = ModelInfo.of(name + " - " + model, supports);
          return Model.create(action, info, new ChatCompletionsClient(model, settings, http));
        });
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static @Nullable String nonBlank(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static URI checked(URI url) {
    return PluginHttp.httpUrl(url, "the base URL");
  }

  /** Configures an {@link OpenAICompatible} plugin. Not thread-safe; build once. */
  public static final class Builder {
    private String name = DEFAULT_NAME;
    private @Nullable URI baseUrl;
    private @Nullable String apiKey;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private @Nullable HttpClient httpClient;
    private ModelInfo.Supports supports = DEFAULT_SUPPORTS;
    private boolean strictJsonSchema;
    private @Nullable String maxTokensField;
    private Function<String, @Nullable String> environment = System::getenv;

    private Builder() {}

    /** The plugin name and model namespace, such as {@code ollama}; {@code openai} by default. */
    public Builder name(String name) {
      if (Objects.requireNonNull(name, "name").isBlank() || name.contains("/")) {
        throw new IllegalArgumentException("a plugin name must be non-blank without '/': " + name);
      }
      this.name = name;
      return this;
    }

    /**
     * The API's base address, such as {@code http://localhost:11434/v1} for Ollama; requests go to
     * {@code <baseUrl>/chat/completions}. Setting it stops the key being read from {@code
     * OPENAI_API_KEY}.
     */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = checked(Objects.requireNonNull(baseUrl, "baseUrl"));
      return this;
    }

    /** The key sent as {@code Authorization: Bearer <key>}; null sends none. */
    public Builder apiKey(@Nullable String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** A header sent with every request, such as OpenRouter's {@code X-Title}. */
    public Builder header(String name, String value) {
      headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
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

    /**
     * What the server's models support, when it is less than {@link #DEFAULT_SUPPORTS}: a server
     * without {@code json_schema} support wants {@code constrained} {@code "none"}, so the generate
     * loop describes the schema in the prompt instead.
     */
    public Builder supports(ModelInfo.Supports supports) {
      this.supports = Objects.requireNonNull(supports, "supports");
      return this;
    }

    /**
     * Whether constrained output asks for {@code strict} schema adherence (false by default).
     * Strict mode needs every property required and {@code additionalProperties: false}, which
     * inferred schemas do not always satisfy.
     */
    public Builder strictJsonSchema(boolean strict) {
      this.strictJsonSchema = strict;
      return this;
    }

    /**
     * The request field that the {@code maxOutputTokens} config key is sent as. Unless set, it is
     * {@code max_completion_tokens} when the base URL's host is {@code api.openai.com}, which wants
     * that field, and {@code max_tokens} for any other server, since Ollama, llama.cpp and older
     * vLLM releases honour only that one.
     */
    public Builder maxTokensField(String field) {
      if (Objects.requireNonNull(field, "field").isBlank()) {
        throw new IllegalArgumentException("the max tokens field must not be blank");
      }
      this.maxTokensField = field;
      return this;
    }

    /** Where environment variables are read from; tests replace {@link System#getenv}. */
    Builder environment(Function<String, @Nullable String> environment) {
      this.environment = environment;
      return this;
    }

    public OpenAICompatible build() {
      return new OpenAICompatible(this);
    }
  }
}
