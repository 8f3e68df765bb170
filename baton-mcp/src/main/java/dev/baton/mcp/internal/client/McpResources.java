package dev.baton.mcp.internal.client;

import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResult;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP server's resources: read as parts ({@link #read}), and offered to a model as two tools,
 * {@code <client>/list_resources} (the resources and the URI templates, kept until the server says
 * they changed) and {@code <client>/read_resource} (input {@code {"uri"}}, answering with the text
 * as output and every content as a part: text as text, blobs as media).
 *
 * <p>Thread-safe.
 */
public final class McpResources {
  // The statuses of a read the model can put right itself (a URI it got wrong): it gets them as
  // its tool's answer rather than as the end of its turn.
  private static final Set<Status> MODEL_ERRORS = Set.of(Status.INVALID_ARGUMENT, Status.NOT_FOUND);

  private final ServerConnection connection;
  private final Listing<ObjectNode> listing;
  private final Tool<?, ?> listTool;
  private final Tool<?, ?> readTool;

  public McpResources(ServerConnection connection) {
    this.connection = connection;
    this.listing =
        new Listing<>(
            connection::resourceListVersion, cancellation -> list(connection, cancellation));
    String prefix = connection.name() + "/";
    ObjectNode noInput = Json.object().put("type", "object");
    noInput.putObject("properties");
    ObjectNode uriInput = Json.object().put("type", "object");
    uriInput
        .putObject("properties")
        .putObject("uri")
        .put("type", "string")
        .put("description", "The URI of a listed resource, or one a URI template makes");
    uriInput.putArray("required").add("uri");
    this.listTool =
        Tool.createJson(
            prefix + "list_resources",
            "Lists the resources of the MCP server \"%s\", and URI templates of more, to read with %s"
                .formatted(connection.name(), prefix + "read_resource"),
            noInput,
            null,
            (context, input) -> {
              ServerTools.nameClientInSpan(context, connection.name());
              // A copy: the kept list must not change with what a caller does to its answer.
              return Json.copy(listing.get(context.context().cancellation()));
            });
    this.readTool =
        Tool.createMultipart(
            prefix + "read_resource",
            "Reads a resource of the MCP server \"%s\" by its URI".formatted(connection.name()),
            uriInput,
            null,
            (context, input) -> {
              ServerTools.nameClientInSpan(context, connection.name());
              return readForModel(context.context().cancellation(), input.path("uri").asString());
            });
  }

  /**
   * What the server reads at {@code uri}, each content a part.
   *
   * @throws BatonException {@code NOT_FOUND} when the server has no resources; else as the server
   *     answered, mapped by {@link McpErrors}
   */
  public List<Part> read(Cancellation cancellation, String uri) {
    if (!hasResources()) {
      throw BatonException.notFound(
          "MCP server \"%s\" has no resources (asked for %s)", connection.name(), uri);
    }
    McpSchema.ReadResourceResult result =
        connection.request(
            cancellation,
            client -> client.readResource(McpSchema.ReadResourceRequest.builder(uri).build()));
    List<Part> parts = new ArrayList<>();
    for (McpSchema.ResourceContents contents : result.contents()) {
      parts.add(ToolResults.toPart(contents));
    }
    return parts;
  }

  /**
   * The two tools, or none when the server has no resources: {@code list_resources}'s answer lists
   * {@code resources} ({@code uri}, {@code name}, and {@code title}, {@code description}, {@code
   * mimeType} when given) and {@code resourceTemplates} (likewise, with {@code uriTemplate}).
   * Starts the server, to learn whether it has resources.
   */
  public List<Tool<?, ?>> tools() {
    return hasResources() ? List.of(listTool, readTool) : List.of();
  }

  // The SDK refuses to ask a server for resources it does not announce.
  private boolean hasResources() {
    return connection.capabilities().resources() != null;
  }

  /** The tool {@code <client>/<name>} for a registry lookup, or null when there is none. */
  public @Nullable Tool<?, ?> find(String name) {
    return tools().stream()
        .filter(tool -> tool.name().equals(connection.name() + "/" + name))
        .findFirst()
        .orElse(null);
  }

  private ToolResult.Output readForModel(Cancellation cancellation, String uri) {
    List<Part> parts;
    try {
      parts = read(cancellation, uri);
    } catch (BatonException e) {
      if (!MODEL_ERRORS.contains(e.status())) {
        throw e;
      }
      ObjectNode error = Json.object().put("error", e.getMessage());
      return new ToolResult.Output(error, null);
    }
    String text =
        parts.stream()
            .filter(TextPart.class::isInstance)
            .map(part -> ((TextPart) part).text())
            .collect(Collectors.joining("\n"));
    return new ToolResult.Output(Json.nodes().stringNode(text), parts);
  }

  private static ObjectNode list(ServerConnection connection, Cancellation cancellation) {
    // The SDK's listResources() and listResourceTemplates() follow every page.
    ObjectNode list = Json.object();
    ArrayNode resources = list.putArray("resources");
    for (McpSchema.Resource resource :
        connection.request(
            cancellation, client -> client.listResources().map(result -> result.resources()))) {
      ObjectNode entry = resources.addObject().put("uri", resource.uri());
      describe(entry, resource.name(), resource.title(), resource.description());
      putIfGiven(entry, "mimeType", resource.mimeType());
    }
    ArrayNode templates = list.putArray("resourceTemplates");
    for (McpSchema.ResourceTemplate template : templates(connection, cancellation)) {
      ObjectNode entry = templates.addObject().put("uriTemplate", template.uriTemplate());
      describe(entry, template.name(), template.title(), template.description());
      putIfGiven(entry, "mimeType", template.mimeType());
    }
    return list;
  }

  /** The URI templates; none from a server that has resources but not the templates method. */
  private static List<McpSchema.ResourceTemplate> templates(
      ServerConnection connection, Cancellation cancellation) {
    try {
      return connection.request(
          cancellation,
          client -> client.listResourceTemplates().map(result -> result.resourceTemplates()));
    } catch (BatonException e) {
      if (e.status() == Status.UNIMPLEMENTED) {
        return List.of();
      }
      throw e;
    }
  }

  private static void describe(
      ObjectNode entry, String name, @Nullable String title, @Nullable String description) {
    entry.put("name", name);
    putIfGiven(entry, "title", title);
    putIfGiven(entry, "description", description);
  }

  private static void putIfGiven(ObjectNode entry, String field, @Nullable String value) {
    if (value != null) {
      entry.put(field, value);
    }
  }
}
