package dev.baton.server.internal.protocol;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.io.IOException;
import java.io.InputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a request's envelope, {@code {"data": ..., "init": ...}}, within limits: at most {@code
 * maxBytes} of body and {@value #MAX_DEPTH} levels of nesting. A body over the size limit is
 * refused before it is parsed, as soon as its declared length or the bytes read so far exceed it.
 *
 * <p>Thread-safe.
 */
public final class RequestBody {
  /** How deep objects and arrays may nest; Genkit's payloads use a handful of levels. */
  public static final int MAX_DEPTH = 256;

  private static final JsonMapper READER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                  .build())
          .build();

  private final long maxBytes;

  public RequestBody(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The envelope of a request.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a body over the limit ({@link
   *     #isTooLarge}), one that is not JSON ({@link #isNotJson}), or one that is not an object
   */
  public ObjectNode read(Transport request) {
    long declared = request.declaredLength();
    if (declared > maxBytes) {
      throw tooLarge();
    }
    byte[] bytes;
    try (InputStream in = request.body()) {
      bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
    } catch (IOException e) {
      throw new BatonException(
          Status.INVALID_ARGUMENT, "the request body could not be read", null, true, e);
    }
    if (bytes.length > maxBytes) {
      throw tooLarge();
    }
    if (bytes.length == 0) {
      throw BatonException.invalidArgument("the request body is empty; send {\"data\": <input>}");
    }
    JsonNode body;
    try {
      body = READER.readTree(bytes);
    } catch (JacksonException e) {
      throw new NotJson(e);
    }
    if (body == null || !body.isObject()) {
      throw BatonException.invalidArgument(
          "the request body must be a JSON object: {\"data\": <input>, \"init\": <init>}");
    }
    return (ObjectNode) body;
  }

  /** Whether an error is this reader's refusal of a body over the limit. */
  public static boolean isTooLarge(BatonException error) {
    return error instanceof TooLarge;
  }

  /** Whether an error is this reader's refusal of a body that does not parse as JSON. */
  public static boolean isNotJson(BatonException error) {
    return error instanceof NotJson;
  }

  private BatonException tooLarge() {
    return new TooLarge(maxBytes);
  }

  /** The refusal of a body over the limit: {@code INVALID_ARGUMENT}, answered with HTTP 413. */
  private static final class TooLarge extends BatonException {
    private static final long serialVersionUID = 1L;

    TooLarge(long maxBytes) {
      super(
          Status.INVALID_ARGUMENT,
          "the request body is larger than the server accepts (" + maxBytes + " bytes)");
    }
  }

  /** The refusal of a body that does not parse as JSON: {@code INVALID_ARGUMENT}. */
  private static final class NotJson extends BatonException {
    private static final long serialVersionUID = 1L;

    NotJson(JacksonException cause) {
      super(
          Status.INVALID_ARGUMENT,
          "the request body is not valid JSON (or nests deeper than " + MAX_DEPTH + " levels)",
          null,
          true,
          cause);
    }
  }
}
