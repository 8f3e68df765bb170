/** Gemini API models for Baton: {@link dev.baton.plugins.googleai.GoogleAI}. */
module dev.baton.googleai {
  requires transitive dev.baton;
  requires java.net.http;

  exports dev.baton.plugins.googleai;
  exports dev.baton.plugins.googleai.internal to
      dev.baton.vertexai;

  opens dev.baton.plugins.googleai to
      tools.jackson.databind,
      com.github.victools.jsonschema.generator;
}
