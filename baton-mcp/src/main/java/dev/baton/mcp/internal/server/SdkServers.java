package dev.baton.mcp.internal.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer.SyncSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.util.List;

/**
 * The SDK's classic sync server over one transport, serving the same tools and prompts whichever it
 * is.
 *
 * @param tools the served tools and flows and agents
 * @param prompts the served prompts
 */
public record SdkServers(
    McpJsonMapper mapper,
    List<SyncToolSpecification> tools,
    List<SyncPromptSpecification> prompts) {

  /** The name the server gives in its {@code initialize} answer. */
  static final String NAME = "baton";

  public SdkServers {
    tools = List.copyOf(tools);
    prompts = List.copyOf(prompts);
  }

  /**
   * A server on {@code spec}'s transport. Tool names are not held to the SDK's strict pattern,
   * since Baton's may hold a slash ({@code "fs/read_file"}); inputs are validated by Baton, against
   * the same schemas, with Baton's messages.
   *
   * @param immediate whether calls run on the transport's thread (a request's own, over HTTP)
   *     rather than on the SDK's worker pool (over stdio, whose one reader thread must go on
   *     reading)
   */
  public <S extends SyncSpecification<S>> McpSyncServer build(
      SyncSpecification<S> spec, boolean immediate) {
    ServerCapabilities.Builder capabilities = ServerCapabilities.builder().tools(false);
    if (!prompts.isEmpty()) {
      capabilities.prompts(false);
    }
    return spec.serverInfo(NAME, version())
        .jsonMapper(mapper)
        .capabilities(capabilities.build())
        .strictToolNameValidation(false)
        .validateToolInputs(false)
        .immediateExecution(immediate)
        .tools(tools)
        .prompts(prompts)
        .build();
  }

  private static String version() {
    String version = SdkServers.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
