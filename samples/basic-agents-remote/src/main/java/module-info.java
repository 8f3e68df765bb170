/** Baton's basic-agents-remote sample: an orchestrator delegating to a remote researcher. */
module dev.baton.samples.agentsremote {
  requires dev.baton;
  requires dev.baton.server;
  requires dev.baton.a2a;
  requires dev.baton.googleai;
}
