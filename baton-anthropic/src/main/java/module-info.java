/**
 * Claude models through the Anthropic Messages API: {@link dev.baton.plugins.anthropic.Anthropic}.
 */
module dev.baton.anthropic {
  requires transitive dev.baton;
  requires java.net.http;

  exports dev.baton.plugins.anthropic;
  exports dev.baton.plugins.anthropic.internal to
      dev.baton.vertexai;

  opens dev.baton.plugins.anthropic to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
}
