package dev.baton.spring.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The {@code baton.*} properties. Every one has a default, so an application needs none of them to
 * start; a model plugin needs its key, from these properties or the provider's usual environment
 * variable.
 *
 * <p>The {@code @param} texts below are what IDEs show for each property (the configuration
 * metadata copies them), so they are plain text.
 *
 * @param experimental Whether agents, sessions and their middleware are enabled (the builder's
 *     experimental()). On by default, since serving agents is what the starter is for.
 * @param shutdownGrace How long the context's shutdown waits for running turns and detached runs
 *     before it aborts them, so that they settle as resumable rows. By default Spring Boot's
 *     spring.lifecycle.timeout-per-shutdown-phase, 30 seconds unless set.
 * @param traceContent Whether spans record their inputs and outputs. By default only when
 *     GENKIT_ENV=dev.
 * @param store Where sessions are kept.
 * @param server How agents and flows are served on the application's servlet container.
 * @param googleai The Gemini API plugin (baton-googleai).
 * @param openai The OpenAI-compatible plugin (baton-openai).
 * @param anthropic The Claude plugin (baton-anthropic).
 * @param vertexai The Vertex AI plugin (baton-vertexai).
 * @param devtools Genkit's reflection API, for genkit start and the Developer UI.
 * @param console The task console, a web page of the served agents' sessions, delegations and
 *     spend, with live status and an abort of running tasks.
 */
@ConfigurationProperties("baton")
public record BatonProperties(
    @DefaultValue("true") boolean experimental,
    @Nullable Duration shutdownGrace,
    @Nullable Boolean traceContent,
    @DefaultValue Store store,
    @DefaultValue Server server,
    @DefaultValue GoogleAi googleai,
    @DefaultValue OpenAi openai,
    @DefaultValue Anthropic anthropic,
    @DefaultValue VertexAi vertexai,
    @DefaultValue DevTools devtools,
    @DefaultValue Console console) {

  /** Which session store the auto-configuration creates, unless the application declares one. */
  public enum StoreType {
    /**
     * PostgreSQL when {@code baton-postgres} is on the class path and the application has a {@code
     * DataSource}; else the file store when {@code baton.store.file.directory} is set; else memory.
     */
    AUTO,
    /** Sessions in memory: lost when the application stops. */
    MEMORY,
    /** Sessions in files under {@code baton.store.file.directory}. */
    FILE,
    /** Sessions in PostgreSQL, through the application's {@code DataSource}. */
    POSTGRES
  }

  /**
   * Where sessions are kept.
   *
   * @param type Which store to create: auto picks PostgreSQL when baton-postgres is on the class
   *     path and a DataSource exists, else the file store when its directory is set, else memory.
   * @param file The file store.
   * @param postgres The PostgreSQL store.
   */
  public record Store(
      @DefaultValue("auto") StoreType type,
      @DefaultValue File file,
      @DefaultValue Postgres postgres) {}

  /**
   * The file store.
   *
   * @param directory The folder that holds the sessions; created when missing.
   */
  public record File(@Nullable Path directory) {}

  /**
   * The PostgreSQL store.
   *
   * @param createSchema Whether the store creates its schema and tables at start when they are
   *     missing; when false they must exist, and the start fails when they do not.
   * @param schema The database schema that holds the store's tables.
   */
  public record Postgres(
      @DefaultValue("true") boolean createSchema, @DefaultValue("public") String schema) {}

  /**
   * How agents and flows are served on the application's servlet container, in Genkit's wire
   * format: {@code <base-path>/agents/<name>} (with its {@code getSnapshot}, {@code
   * waitForSnapshot} and {@code abort} companions) and {@code <base-path>/flows/<name>}.
   *
   * @param enabled Whether to serve agents and flows at all (in a servlet web application).
   * @param basePath The path the routes sit under, such as /baton; not / (the root), which would
   *     hide the application's other endpoints. A Spring Security filter chain guards it as any
   *     other path, and its authenticated user becomes Baton's principal.
   * @param agents The agents to serve, by name: * (the default) serves every local agent, and an
   *     empty list serves none.
   * @param flows The flows to serve, by name: * (the default) serves every flow, and an empty list
   *     serves none.
   * @param maxRequestSize The largest request body accepted.
   * @param keepAliveInterval How often streams send keep-alive comments to clients that ask for
   *     them.
   * @param exposeErrorMessages Whether error answers carry internal errors' own messages. By
   *     default only when GENKIT_ENV=dev.
   */
  public record Server(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("/baton") String basePath,
      @DefaultValue("*") List<String> agents,
      @DefaultValue("*") List<String> flows,
      @DefaultValue("4MB") DataSize maxRequestSize,
      @DefaultValue("15s") Duration keepAliveInterval,
      @Nullable Boolean exposeErrorMessages) {}

  /**
   * The Gemini API plugin, added when {@code baton-googleai} is on the class path and a key is
   * found.
   *
   * @param enabled Whether the Gemini API plugin is added: unset adds it when its key is found;
   *     true requires it (the start fails without a key); false never adds it.
   * @param apiKey The Gemini API key. By default the GEMINI_API_KEY environment variable, else
   *     GOOGLE_API_KEY.
   */
  public record GoogleAi(@Nullable Boolean enabled, @Nullable String apiKey) {}

  /**
   * The OpenAI-compatible plugin, added when {@code baton-openai} is on the class path and a key or
   * a base URL is found.
   *
   * @param enabled Whether the OpenAI-compatible plugin is added: unset adds it when its key or
   *     base URL is found; true requires it (the start fails without either); false never adds it.
   * @param apiKey The API key. By default the OPENAI_API_KEY environment variable, unless
   *     baton.openai.base-url names another server.
   * @param baseUrl The server's base URL. By default the OPENAI_BASE_URL environment variable, else
   *     OpenAI's.
   */
  public record OpenAi(@Nullable Boolean enabled, @Nullable String apiKey, @Nullable URI baseUrl) {}

  /**
   * The Claude plugin, added when {@code baton-anthropic} is on the class path and a key is found.
   *
   * @param enabled Whether the Claude plugin is added: unset adds it when its key is found; true
   *     requires it (the start fails without a key); false never adds it.
   * @param apiKey The Anthropic API key. By default the ANTHROPIC_API_KEY environment variable.
   */
  public record Anthropic(@Nullable Boolean enabled, @Nullable String apiKey) {}

  /**
   * The Vertex AI plugin, added when {@code baton-vertexai} is on the class path and a project is
   * found; it authenticates with Application Default Credentials.
   *
   * @param enabled Whether the Vertex AI plugin is added: unset adds it when its project is found;
   *     true requires it (the start fails without a project); false never adds it.
   * @param project The Google Cloud project. By default the GOOGLE_CLOUD_PROJECT environment
   *     variable.
   * @param location The region, or global. By default the GOOGLE_CLOUD_LOCATION environment
   *     variable, else global.
   */
  public record VertexAi(
      @Nullable Boolean enabled, @Nullable String project, @Nullable String location) {}

  /**
   * Genkit's reflection API ({@code baton-devtools}).
   *
   * @param enabled Whether to start the reflection API. By default when GENKIT_ENV=dev, as genkit
   *     start sets it.
   */
  public record DevTools(@Nullable Boolean enabled) {}

  /**
   * The task console, served beside the agents under {@code baton.server.base-path} (so at {@code
   * /baton/console} by default). Every request goes through the same authentication as the agent
   * routes; without it (no Spring Security user and no ContextProvider bean) only loopback clients
   * are answered.
   *
   * @param enabled Whether to serve the task console. Off by default.
   * @param path The console's path under the base path, such as /console; outside /agents and
   *     /flows.
   * @param tokenKey The key of the console's abort tokens (at least 32 characters), the same on
   *     every replica so a page's token works on each and across restarts; unset, each start makes
   *     a random one. A secret.
   */
  public record Console(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("/console") String path,
      @Nullable String tokenKey) {}
}
