package dev.baton.spring.autoconfigure.internal;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.springframework.boot.jetty.JettyServerCustomizer;

/**
 * Makes the header cache of Jetty's HTTP/1 connectors case-sensitive. Jetty reuses a header field
 * parsed earlier on the same connection when a new one matches it, by default without regard to
 * case: behind a proxy that sends several users' requests over one connection, a credential (a
 * bearer token, HTTP Basic credentials) could be read as an earlier request's that differs from it
 * only in case.
 */
public final class CaseSensitiveHeaderCache implements JettyServerCustomizer {
  /** Created by the auto-configuration. */
  public CaseSensitiveHeaderCache() {}

  @Override
  public void customize(Server server) {
    for (Connector connector : server.getConnectors()) {
      HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
      if (http != null) {
        http.getHttpConfiguration().setHeaderCacheCaseSensitive(true);
      }
    }
  }
}
