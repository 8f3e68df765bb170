package dev.baton.spring.autoconfigure.internal;

import dev.baton.server.internal.servlet.RequestAuth;
import dev.baton.spring.autoconfigure.BatonAuthenticationMapper;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Makes the user that Spring Security authenticated the request Baton's caller, so that a
 * server-managed agent's sessions belong to that user. It reads the {@link Authentication} of the
 * request's security context, which Spring Security's filter chain has set on the container thread
 * that calls it, and maps it with the application's {@link BatonAuthenticationMapper}. An anonymous
 * or missing authentication gives no auth context: whether such a request may reach Baton at all is
 * the filter chain's decision.
 *
 * <p>Thread-safe: it keeps no state.
 */
public final class SecurityRequestAuth implements RequestAuth {
  private final BatonAuthenticationMapper mapper;
  private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

  /** Maps each authenticated user with {@code mapper}. */
  public SecurityRequestAuth(BatonAuthenticationMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public @Nullable Map<String, ?> of(HttpServletRequest request) {
    Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
    if (authentication == null || !trust.isAuthenticated(authentication)) {
      return null;
    }
    return mapper.authContext(authentication);
  }
}
