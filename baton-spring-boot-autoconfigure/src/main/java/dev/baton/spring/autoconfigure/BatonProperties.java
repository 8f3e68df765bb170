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
 * @param experimental whether agents, sessions and their middleware are enabled ({@code
 *     Baton.Builder.experimental()}); on by default, since serving agents is what the starter is
 *     for
 * @param shutdownGrace how long the context's shutdown waits for running turns and detached runs
 *     before it aborts them, so that they settle as resumable rows; by default Spring Boot's {@code
 *     spring.lifecycle.timeout-per-shutdown-phase}
 * @param traceContent whether spans record their inputs and outputs; by default only when {@code
 *     GENKIT_ENV=dev}
 * @param store where sessions are kept
 * @param server how agents and flows are served on the application's servlet container
 * @param googleai the Gemini API plugin ({@code baton-googleai})
 * @param openai the OpenAI-compatible plugin ({@code baton-openai})
 * @param anthropic the Claude plugin ({@code baton-anthropic})
 * @param vertexai the Vertex AI plugin ({@code baton-vertexai})
 * @param devtools Genkit's reflection API, for {@code genkit start} and the Developer UI
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
    @DefaultValue DevTools devtools) {

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
   * @param type which store to create; {@code auto} picks from what the application has
   * @param file the file store
   * @param postgres the PostgreSQL store
   */
  public record Store(
      @DefaultValue("auto") StoreType type,
      @DefaultValue File file,
      @DefaultValue Postgres postgres) {}

  /**
   * The file store.
   *
   * @param directory the folder that holds the sessions; created when missing
   */
  public record File(@Nullable Path directory) {}

  /**
   * The PostgreSQL store.
   *
   * @param createSchema whether the store's tables are created on start when missing
   * @param schema the database schema that holds the store's tables
   */
  public record Postgres(
      @DefaultValue("true") boolean createSchema, @DefaultValue("public") String schema) {}

  /**
   * How agents and flows are served on the application's servlet container, in Genkit's wire
   * format: {@code <base-path>/agents/<name>} (with its {@code getSnapshot}, {@code
   * waitForSnapshot} and {@code abort} companions) and {@code <base-path>/flows/<name>}.
   *
   * @param enabled whether to serve them at all
   * @param basePath the path the routes sit under
   * @param agents the agents to serve; empty serves every local agent
   * @param flows the flows to serve; empty serves every flow
   * @param maxRequestSize the largest request body accepted
   * @param keepAliveInterval how often streams send keep-alive comments to clients that ask for
   *     them
   * @param exposeErrorMessages whether error answers carry internal errors' own messages; by
   *     default only when {@code GENKIT_ENV=dev}
   */
  public record Server(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("/baton") String basePath,
      @DefaultValue List<String> agents,
      @DefaultValue List<String> flows,
      @DefaultValue("4MB") DataSize maxRequestSize,
      @DefaultValue("15s") Duration keepAliveInterval,
      @Nullable Boolean exposeErrorMessages) {}

  /**
   * The Gemini API plugin, added when {@code baton-googleai} is on the class path and a key is
   * found.
   *
   * @param enabled whether to add it
   * @param apiKey the API key; by default {@code GEMINI_API_KEY} or {@code GOOGLE_API_KEY}
   */
  public record GoogleAi(@DefaultValue("true") boolean enabled, @Nullable String apiKey) {}

  /**
   * The OpenAI-compatible plugin, added when {@code baton-openai} is on the class path and a key or
   * a base URL is found.
   *
   * @param enabled whether to add it
   * @param apiKey the API key; by default {@code OPENAI_API_KEY}
   * @param baseUrl the server's base URL; by default {@code OPENAI_BASE_URL}, else OpenAI's
   */
  public record OpenAi(
      @DefaultValue("true") boolean enabled, @Nullable String apiKey, @Nullable URI baseUrl) {}

  /**
   * The Claude plugin, added when {@code baton-anthropic} is on the class path and a key is found.
   *
   * @param enabled whether to add it
   * @param apiKey the API key; by default {@code ANTHROPIC_API_KEY}
   */
  public record Anthropic(@DefaultValue("true") boolean enabled, @Nullable String apiKey) {}

  /**
   * The Vertex AI plugin, added when {@code baton-vertexai} is on the class path and a project is
   * found; it authenticates with Application Default Credentials.
   *
   * @param enabled whether to add it
   * @param project the Google Cloud project; by default {@code GOOGLE_CLOUD_PROJECT}
   * @param location the region or {@code global}; by default {@code GOOGLE_CLOUD_LOCATION}, else
   *     the plugin's default
   */
  public record VertexAi(
      @DefaultValue("true") boolean enabled, @Nullable String project, @Nullable String location) {}

  /**
   * Genkit's reflection API ({@code baton-devtools}).
   *
   * @param enabled whether to start it; by default when {@code GENKIT_ENV=dev}, as {@code genkit
   *     start} sets it
   */
  public record DevTools(@Nullable Boolean enabled) {}
}
