/** Baton's basic-agents-server sample: agents served over HTTP in Genkit's wire format. */
module dev.baton.samples.agentsserver {
  requires dev.baton;
  requires dev.baton.server;
  requires dev.baton.googleai;
  requires dev.baton.store.postgres;
  requires com.zaxxer.hikari;
}
