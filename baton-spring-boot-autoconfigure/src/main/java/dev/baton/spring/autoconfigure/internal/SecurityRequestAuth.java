package dev.baton.spring.autoconfigure.internal;

import dev.baton.core.ActionContext;
import dev.baton.server.internal.servlet.RequestAuth;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Makes the user that Spring Security authenticated the request as Baton's principal, so that a
 * server-managed agent's sessions belong to that user. It reads the {@link Authentication} of the
 * request's security context, which Spring Security's filter chain has set on the container thread
 * that calls it. An anonymous or missing authentication gives no auth context: whether such a
 * request may reach Baton at all is the filter chain's decision.
 *
 * <p>Thread-safe: it keeps no state.
 */
public final class SecurityRequestAuth implements RequestAuth {
  private final String authoritiesKey;
  private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

  /** Puts the user's granted authorities under {@code authoritiesKey} of the auth context. */
  public SecurityRequestAuth(String authoritiesKey) {
    this.authoritiesKey = authoritiesKey;
  }

  @Override
  public @Nullable Map<String, ?> of(HttpServletRequest request) {
    Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
    if (authentication == null || !trust.isAuthenticated(authentication)) {
      return null;
    }
    List<String> authorities =
        authentication.getAuthorities().stream()
            .map(GrantedAuthority::getAuthority)
            .filter(authority -> authority != null)
            .toList();
    return Map.of(ActionContext.PRINCIPAL, authentication.getName(), authoritiesKey, authorities);
  }
}
