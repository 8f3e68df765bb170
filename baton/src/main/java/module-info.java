/**
 * Baton: Genkit's agent model for the JVM.
 *
 * <p>Start with {@link dev.baton.Baton}. The exported packages are the API: {@code dev.baton.core}
 * (actions, contexts, errors, JSON), {@code dev.baton.ai} (messages, models, tools, prompts,
 * middleware), {@code dev.baton.agent} (agents, sessions, snapshots, stores), {@code
 * dev.baton.agent.store} (the in-memory and file stores), {@code dev.baton.middleware} (the stable
 * bundled middleware) and the experimental middleware by concept: {@code
 * dev.baton.middleware.agents} (delegation and artifacts), {@code dev.baton.middleware.budget} and
 * {@code dev.baton.middleware.compression}. {@code dev.baton.internal.*} is Baton's own and is
 * exported only to Baton's other modules.
 *
 * <p>Baton reads and writes your records with Jackson: open the packages of the types your tools,
 * flows and agents exchange to {@code tools.jackson.databind}.
 */
module dev.baton {
  requires transitive tools.jackson.databind;
  requires transitive io.opentelemetry.api;
  requires transitive io.opentelemetry.context;
  requires transitive org.jspecify;
  requires com.fasterxml.classmate;
  requires com.github.victools.jsonschema.generator;
  requires com.github.victools.jsonschema.module.jackson;
  requires com.networknt.schema;
  requires org.slf4j;
  // RemoteAgentOptions takes an HttpClient of the application's.
  requires transitive java.net.http;

  exports dev.baton;
  exports dev.baton.core;
  exports dev.baton.ai;
  exports dev.baton.agent;
  exports dev.baton.agent.store;
  exports dev.baton.middleware;
  exports dev.baton.middleware.agents;
  exports dev.baton.middleware.budget;
  exports dev.baton.middleware.compression;
  exports dev.baton.internal.ai to
      dev.baton.googleai;
  exports dev.baton.internal.core to
      dev.baton.a2a,
      dev.baton.mcp,
      dev.baton.store.postgres,
      dev.baton.devtools,
      dev.baton.server,
      dev.baton.testing;
  exports dev.baton.internal.store to
      dev.baton.store.postgres;
  exports dev.baton.internal.agent to
      dev.baton.a2a,
      dev.baton.testing,
      dev.baton.server;
  exports dev.baton.internal.http to
      dev.baton.a2a,
      dev.baton.anthropic,
      dev.baton.googleai,
      dev.baton.openai,
      dev.baton.server,
      dev.baton.vertexai;

  // Jackson reads and writes the wire records, and victools infers their schemas.
  opens dev.baton.core to
      tools.jackson.databind;
  opens dev.baton.ai to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.agent to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.agent.store to
      tools.jackson.databind;
  opens dev.baton.middleware to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.middleware.agents to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.middleware.budget to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.middleware.compression to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.internal.ai to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.internal.agent to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.internal.middleware.agents to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.internal.middleware.budget to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
  opens dev.baton.internal.middleware.compression to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
}
