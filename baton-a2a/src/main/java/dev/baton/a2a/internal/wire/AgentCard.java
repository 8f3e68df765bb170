package dev.baton.a2a.internal.wire;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an agent tells about itself at {@code /.well-known/agent-card.json}: who it is, where and
 * how to call it, what it can do and how to authenticate. Security schemes are kept as JSON objects
 * in the specification's shapes ({@code apiKey}, {@code http}, {@code oauth2}, {@code
 * openIdConnect}, {@code mutualTLS}).
 */
public record AgentCard(
    String protocolVersion,
    String name,
    String description,
    String url,
    String preferredTransport,
    String version,
    Capabilities capabilities,
    List<String> defaultInputModes,
    List<String> defaultOutputModes,
    List<Skill> skills,
    @Nullable Map<String, ObjectNode> securitySchemes,
    @Nullable List<Map<String, List<String>>> security,
    @Nullable List<Interface> additionalInterfaces,
    @Nullable Provider provider,
    @Nullable String documentationUrl,
    @Nullable String iconUrl,
    @Nullable Boolean supportsAuthenticatedExtendedCard) {

  /** The protocol version this module speaks. */
  public static final String PROTOCOL_VERSION = "0.3.0";

  /** The one transport this module serves: JSON-RPC 2.0 over HTTP. */
  public static final String JSONRPC_TRANSPORT = "JSONRPC";

  /** Optional features: Baton serves streaming, and neither push notifications nor history. */
  public record Capabilities(
      @Nullable Boolean streaming,
      @Nullable Boolean pushNotifications,
      @Nullable Boolean stateTransitionHistory,
      @Nullable List<ObjectNode> extensions) {}

  /** One thing the agent can do. */
  public record Skill(
      String id,
      String name,
      String description,
      List<String> tags,
      @Nullable List<String> examples,
      @Nullable List<String> inputModes,
      @Nullable List<String> outputModes) {}

  /** Another URL and transport the agent is served at. */
  public record Interface(String url, String transport) {}

  /** Who provides the agent. */
  public record Provider(String organization, String url) {}
}
