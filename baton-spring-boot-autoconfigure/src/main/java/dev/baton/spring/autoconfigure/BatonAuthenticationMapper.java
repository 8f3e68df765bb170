package dev.baton.spring.autoconfigure;

import dev.baton.core.ActionContext;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/**
 * Maps the user Spring Security authenticated to Baton's auth context, for each served request the
 * filter chain let through authenticated: declare one as a bean to choose the principal (a JWT
 * claim rather than the name, say) or add entries such as a tenant key. Without one, {@link
 * #byName()} maps the user.
 *
 * <pre>{@code
 * @Bean
 * BatonAuthenticationMapper subjectAndTenant() {
 *   return authentication -> {
 *     Jwt jwt = ((JwtAuthenticationToken) authentication).getToken();
 *     return Map.of(ActionContext.PRINCIPAL, jwt.getSubject(), "tenant", jwt.getClaimAsString("tid"));
 *   };
 * }
 * }</pre>
 *
 * <p>The principal it puts under {@link ActionContext#PRINCIPAL} owns the sessions the request
 * starts; it must be a non-empty string, or the request is refused as a misconfiguration. {@code
 * ContextProvider} beans still run after it and may add entries, but one that names another
 * principal refuses the request with {@code PERMISSION_DENIED}.
 *
 * <p>Called on the container's thread for every request; implementations must be thread-safe.
 */
@FunctionalInterface
public interface BatonAuthenticationMapper {
  /**
   * The auth context of an authenticated user (never an anonymous one), or null for none.
   *
   * @throws dev.baton.core.BatonException to refuse the request, as a context provider does
   */
  @Nullable Map<String, ?> authContext(Authentication authentication);

  /**
   * The default mapping: the user's name ({@link Authentication#getName()}) as the principal, and
   * the granted authorities, as a list of strings, under {@link
   * BatonServerAutoConfiguration#AUTHORITIES}.
   */
  static BatonAuthenticationMapper byName() {
    return authentication -> {
      List<String> authorities =
          authentication.getAuthorities().stream()
              .map(GrantedAuthority::getAuthority)
              .filter(authority -> authority != null)
              .toList();
      return Map.of(
          ActionContext.PRINCIPAL,
          authentication.getName(),
          BatonServerAutoConfiguration.AUTHORITIES,
          authorities);
    };
  }
}
