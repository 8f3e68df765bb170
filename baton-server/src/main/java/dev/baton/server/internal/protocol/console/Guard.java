package dev.baton.server.internal.protocol.console;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.internal.protocol.Transport;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Who may use the console, and which requests may write.
 *
 * <p><b>Loopback.</b> Without a context provider, and without a principal the server binding
 * authenticated, nothing tells one caller from another: the console then answers only clients on
 * the loopback interface, so that turning it on never opens a server's sessions to its network. It
 * also answers only requests whose {@code Host} is {@code localhost}, {@code 127.0.0.1} or {@code
 * [::1]}: a page of another site whose name an attacker re-points at 127.0.0.1 (DNS rebinding) runs
 * in the operator's browser on loopback, but sends its own name as the host.
 *
 * <p><b>Cross-site requests.</b> The abort is the console's one write. A browser sends cookies and
 * client certificates with a cross-site form post, so the abort takes either a bearer credential,
 * which a browser never adds by itself, or the console's token in {@value #TOKEN_HEADER}: a custom
 * header that a cross-site page cannot send without a CORS preflight the console never grants.
 * Either way, the {@code Origin} and {@code Sec-Fetch-Site} headers, when the browser sends them,
 * must say the request comes from the console's own origin. The token is an HMAC of the principal
 * under a key made at start, so it names no secret of the application, differs per principal, and
 * is read only through {@code /api/info}, which a cross-site page cannot read. A configured key
 * makes the same tokens on every replica, and across restarts.
 *
 * <p>Thread-safe.
 */
final class Guard {
  static final String TOKEN_HEADER = "X-Baton-Console-Token";

  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");
  private static final Pattern PORT = Pattern.compile(":[0-9]{1,5}");

  private final SecretKeySpec key;

  /**
   * @param key the tokens' key, or null for a random one (tokens then last as long as this)
   */
  Guard(byte @Nullable [] key) {
    byte[] secret = key;
    if (secret == null) {
      secret = new byte[32];
      new SecureRandom().nextBytes(secret);
    }
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /**
   * Refuses a client that is not on the loopback interface, or that names a host other than a
   * loopback one.
   *
   * @throws BatonException {@code PERMISSION_DENIED} for any other request
   */
  static void requireLoopback(Transport transport) {
    if (!isLoopback(transport.remoteAddress())) {
      throw BatonException.of(
          Status.PERMISSION_DENIED,
          "the console answers only loopback clients: the server has no context provider");
    }
    if (!isLoopbackHost(transport.requestHeader("Host"))) {
      throw BatonException.of(
          Status.PERMISSION_DENIED,
          "the console answers only requests to localhost, 127.0.0.1 or [::1]: the server has no"
              + " context provider");
    }
  }

  /** Whether a {@code Host} header names a loopback host by its usual name, on any port. */
  private static boolean isLoopbackHost(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String name;
    String port;
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      name = close < 0 ? "" : host.substring(0, close + 1);
      port = close < 0 ? "" : host.substring(close + 1);
    } else {
      int colon = host.indexOf(':');
      name = colon < 0 ? host : host.substring(0, colon);
      port = colon < 0 ? "" : host.substring(colon);
    }
    return LOOPBACK_HOSTS.contains(name.toLowerCase(Locale.ROOT))
        && (port.isEmpty() || PORT.matcher(port).matches());
  }

  private static boolean isLoopback(@Nullable String address) {
    if (address == null || address.isEmpty()) {
      return false;
    }
    String literal =
        address.startsWith("[") && address.endsWith("]")
            ? address.substring(1, address.length() - 1)
            : address;
    // A literal only: a name would be looked up, and a client's address is never a name.
    if (!literal.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
      return false;
    }
    try {
      return InetAddress.getByName(literal).isLoopbackAddress();
    } catch (UnknownHostException malformed) {
      return false;
    }
  }

  /** The token a principal's page sends with the abort ({@code ""} for calls without one). */
  String token(@Nullable String principal) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] tag =
          mac.doFinal((principal == null ? "" : principal).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(tag);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has HmacSHA256", e);
    }
  }

  /**
   * Refuses a write that may come from another site: see the class comment.
   *
   * @param byBearer whether the request's principal comes from its bearer credential, which then
   *     stands in for the token
   * @throws BatonException {@code PERMISSION_DENIED} for a request that may be cross-site
   */
  void requireSameOrigin(Transport transport, @Nullable String principal, boolean byBearer) {
    String site = transport.requestHeader("Sec-Fetch-Site");
    boolean sameOrigin =
        (site == null || site.equalsIgnoreCase("same-origin")) && originMatchesHost(transport);
    if (!sameOrigin || !(byBearer || tokenMatches(transport, principal))) {
      throw BatonException.of(
          Status.PERMISSION_DENIED,
          "the console's actions need its token in %s from a page of the same origin, or a bearer"
              + " credential",
          TOKEN_HEADER);
    }
  }

  private boolean tokenMatches(Transport transport, @Nullable String principal) {
    String sent = transport.requestHeader(TOKEN_HEADER);
    return sent != null
        && MessageDigest.isEqual(
            sent.getBytes(StandardCharsets.UTF_8),
            token(principal).getBytes(StandardCharsets.UTF_8));
  }

  /** Whether the request's {@code Origin}, when it has one, names the host it was sent to. */
  private static boolean originMatchesHost(Transport transport) {
    String origin = transport.requestHeader("Origin");
    if (origin == null) {
      return true;
    }
    String host = transport.requestHeader("Host");
    try {
      URI uri = new URI(origin);
      return host != null
          && uri.getRawAuthority() != null
          && uri.getRawAuthority().toLowerCase(Locale.ROOT).equals(host.toLowerCase(Locale.ROOT));
    } catch (java.net.URISyntaxException | RuntimeException malformed) {
      return false;
    }
  }
}
