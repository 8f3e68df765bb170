/**
 * OpenAI-compatible chat models for Baton (OpenAI, Ollama, vLLM, llama.cpp and others): {@link
 * dev.baton.plugins.openai.OpenAICompatible}.
 */
module dev.baton.openai {
  requires transitive dev.baton;
  requires java.net.http;

  exports dev.baton.plugins.openai;

  opens dev.baton.plugins.openai to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
}
