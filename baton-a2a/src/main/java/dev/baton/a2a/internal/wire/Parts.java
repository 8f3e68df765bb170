package dev.baton.a2a.internal.wire;

import dev.baton.ai.MediaPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A2A 0.3 parts as Baton's and back, for both the served agents and the A2A sub-agents, kind for
 * kind: text to text, a file to media (a file's bytes as a base64 {@code data:} URL, which travels
 * back as bytes; any other URL by reference), data to data. Baton's tool requests, tool responses
 * and reasoning have no A2A kind and do not travel. Another protocol version maps its own parts
 * beside this class.
 *
 * <p>Stateless and thread-safe.
 */
public final class Parts {
  private Parts() {}

  /** An A2A part as Baton's; a part's metadata goes with it. */
  public static dev.baton.ai.Part toBaton(Part part) {
    return switch (part) {
      case TextPart text -> new dev.baton.ai.TextPart(text.text(), text.metadata());
      case DataPart data -> new dev.baton.ai.DataPart(data.data(), data.metadata());
      case FilePart file -> new MediaPart(media(file.file()), file.metadata());
    };
  }

  /** A2A parts as Baton's, in order; null for none. */
  public static List<dev.baton.ai.Part> toBaton(@Nullable List<Part> parts) {
    List<dev.baton.ai.Part> baton = new ArrayList<>();
    for (Part part : parts == null ? List.<Part>of() : parts) {
      baton.add(toBaton(part));
    }
    return baton;
  }

  /** A Baton part as an A2A one, or null for a kind A2A has none of. */
  public static @Nullable Part toA2a(dev.baton.ai.Part part) {
    return switch (part) {
      case dev.baton.ai.TextPart text -> new TextPart(text.text(), null);
      case MediaPart media -> new FilePart(file(media.media()), null);
      // A2A data is an object: any other JSON value travels under "value".
      case dev.baton.ai.DataPart data ->
          new DataPart(
              data.data().isObject()
                  ? (ObjectNode) data.data()
                  : Json.object().set("value", data.data()),
              null);
      default -> null;
    };
  }

  /** Baton parts as A2A ones, in order, leaving out the kinds A2A has none of. */
  public static List<Part> toA2a(List<dev.baton.ai.Part> parts) {
    return toA2a(parts, Parts::toA2a);
  }

  /**
   * Baton parts as A2A ones through {@code mapper}, in order, leaving out those it maps to null:
   * for a side that maps a kind of its own (a served agent's interrupts).
   */
  public static List<Part> toA2a(
      List<dev.baton.ai.Part> parts, Function<dev.baton.ai.Part, @Nullable Part> mapper) {
    List<Part> a2a = new ArrayList<>();
    for (dev.baton.ai.Part part : parts) {
      Part mapped = mapper.apply(part);
      if (mapped != null) {
        a2a.add(mapped);
      }
    }
    return a2a;
  }

  private static dev.baton.ai.Media media(FileContent file) {
    if ((file.bytes() == null) == (file.uri() == null)) {
      throw BatonException.invalidArgument("a file part needs exactly one of bytes and uri");
    }
    if (file.uri() != null) {
      return new dev.baton.ai.Media(file.uri(), file.mimeType());
    }
    String type = file.mimeType() == null ? "application/octet-stream" : file.mimeType();
    return new dev.baton.ai.Media("data:" + type + ";base64," + file.bytes(), file.mimeType());
  }

  /** A base64 data URL's bytes travel inline, typed as declared; any other URL by reference. */
  private static FileContent file(dev.baton.ai.Media media) {
    String url = media.url();
    String contentType = media.contentType();
    int comma = url.indexOf(',');
    String header = comma < 0 ? "" : url.substring(0, comma);
    if (url.startsWith("data:") && header.endsWith(";base64")) {
      String declared = header.substring("data:".length(), header.length() - ";base64".length());
      return FileContent.ofBytes(
          contentType != null ? contentType : declared.isEmpty() ? null : declared,
          url.substring(comma + 1));
    }
    return FileContent.ofUri(contentType, url);
  }
}
