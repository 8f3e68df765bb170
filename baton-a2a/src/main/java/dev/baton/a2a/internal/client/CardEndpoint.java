package dev.baton.a2a.internal.client;

import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.core.BatonException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What Baton takes from an A2A 0.3 agent card: the URL of its JSON-RPC interface, its description,
 * and whether it streams ({@code capabilities.streaming}), which lets a wait follow a task's events
 * ({@code tasks/resubscribe}) rather than read it again and again.
 *
 * <p>The JSON-RPC interface is the card's {@code url} when its {@code preferredTransport} is {@code
 * JSONRPC} (the default), or else the {@code url} of an {@code additionalInterfaces} entry whose
 * {@code transport} is {@code JSONRPC}. It must be on the origin (scheme, host and port) the card
 * was read from: Baton sends the agent's requests, with the headers the application gave it
 * (credentials, often), only where the application pointed it, so a card that names another origin
 * is refused rather than followed.
 *
 * @param endpoint the JSON-RPC interface's URL
 * @param description the card's description, or null
 * @param streaming whether the card says the agent streams
 */
record CardEndpoint(URI endpoint, @Nullable String description, boolean streaming) {
  private static final String JSONRPC = AgentCard.JSONRPC_TRANSPORT;

  /**
   * Reads a card.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} for a card without a JSON-RPC interface,
   *     with a URL that is not absolute HTTP, or on another origin than {@code cardUrl}
   */
  static CardEndpoint of(URI cardUrl, AgentCard card) {
    String preferred = Objects.requireNonNullElse(text(card.preferredTransport()), JSONRPC);
    String url = JSONRPC.equalsIgnoreCase(preferred) ? text(card.url()) : null;
    if (url == null && card.additionalInterfaces() != null) {
      for (AgentCard.Interface other : card.additionalInterfaces()) {
        if (JSONRPC.equalsIgnoreCase(text(other.transport()))) {
          url = text(other.url());
          break;
        }
      }
    }
    if (url == null) {
      throw refused(cardUrl, "names no JSON-RPC interface, the only A2A transport Baton speaks");
    }
    URI endpoint = absoluteHttp(cardUrl, url);
    if (!sameOrigin(cardUrl, endpoint)) {
      throw refused(
          cardUrl,
          "names its JSON-RPC interface on another origin ("
              + endpoint
              + "); Baton sends an A2A agent's requests, and the headers they carry, only to the"
              + " origin its card was read from");
    }
    boolean streaming =
        card.capabilities() != null && Boolean.TRUE.equals(card.capabilities().streaming());
    return new CardEndpoint(endpoint, text(card.description()), streaming);
  }

  private static URI absoluteHttp(URI cardUrl, String url) {
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException malformed) {
      // Refused below, with the card's text.
    }
    throw refused(cardUrl, "names \"" + url + "\" as its URL, which is not an absolute HTTP URL");
  }

  private static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && Objects.requireNonNull(a.getHost()).equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI uri) {
    if (uri.getPort() != -1) {
      return uri.getPort();
    }
    return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }

  private static @Nullable String text(@Nullable String text) {
    return text == null || text.isBlank() ? null : text;
  }

  private static BatonException refused(URI cardUrl, String why) {
    return BatonException.failedPrecondition("the A2A agent card at %s %s", cardUrl, why);
  }
}
