package dev.baton.server.internal;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.jspecify.annotations.Nullable;

/**
 * The check every handler that reads credentials from headers makes when it starts: Jetty's HTTP/1
 * connections reuse a header field parsed earlier on the same connection when a new one matches it,
 * by default without regard to case, so behind a proxy that sends several users' requests over one
 * connection a credential could be read as another that differs from it only in case.
 */
public final class HeaderCaches {
  private HeaderCaches() {}

  /**
   * Refuses a server with an HTTP/1 connector whose header cache is not case-sensitive.
   *
   * @param handler the handler that reads credentials, as its error message names it
   * @throws IllegalStateException naming the connector and the setting that fixes it
   */
  public static void requireCaseSensitive(@Nullable Server server, String handler) {
    if (server == null) {
      return;
    }
    for (Connector connector : server.getConnectors()) {
      HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
      HttpConfiguration config = http == null ? null : http.getHttpConfiguration();
      if (config != null
          && config.getHeaderCacheSize() > 0
          && !config.isHeaderCacheCaseSensitive()) {
        throw new IllegalStateException(
            handler
                + " has context providers, which read credentials from headers, but connector "
                + connector
                + " matches cached header values without regard to case, so one connection could"
                + " read a token as another that differs from it only in case; call"
                + " setHeaderCacheCaseSensitive(true) on its HttpConfiguration");
      }
    }
  }
}
