/** Baton's basic-agents sample: a coordinator that delegates to a researcher and a coder. */
module dev.baton.samples.basicagents {
  requires dev.baton;
  requires dev.baton.googleai;
  requires dev.baton.openai;
  requires dev.baton.anthropic;
  requires dev.baton.vertexai;
  requires dev.baton.otel;
  requires dev.baton.devtools;
  requires dev.baton.store.postgres;
  requires com.zaxxer.hikari;

  opens dev.baton.samples.basicagents to
      tools.jackson.databind;
}
