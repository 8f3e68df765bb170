package dev.baton.mcp.internal.server;

import dev.baton.mcp.internal.McpSdk;
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
public record SdkServers(List<SyncToolSpecification> tools, List<SyncPromptSpecification> prompts) {

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
    return spec.serverInfo(McpSdk.NAME, McpSdk.version())
        .jsonMapper(McpSdk.MAPPER)
        .capabilities(capabilities.build())
        .strictToolNameValidation(false)
        .validateToolInputs(false)
        .immediateExecution(immediate)
        .tools(tools)
        .prompts(prompts)
        .build();
  }
}
