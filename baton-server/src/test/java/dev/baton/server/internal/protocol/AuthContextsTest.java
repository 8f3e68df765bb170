package dev.baton.server.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A binding's own auth context is merged first, and checked as the providers' is. */
class AuthContextsTest {
  private static final RequestData REQUEST = RequestData.of("POST", Map.of());

  @Test
  void theBoundContextAloneBindsItsPrincipal() {
    assertThat(AuthContexts.of(Map.of(ActionContext.PRINCIPAL, "carol"), List.of(), REQUEST))
        .containsEntry(ActionContext.PRINCIPAL, "carol");
    assertThat(AuthContexts.of(null, List.of(), REQUEST)).isEmpty();
  }

  @Test
  void providersAddToTheBoundContextButNeverReplaceItsPrincipal() {
    ContextProvider sameCaller =
        request -> Map.of(ActionContext.PRINCIPAL, "carol", "tenant", "acme");
    ContextProvider noPrincipal = request -> Map.of("plan", "gold");

    Map<String, Object> auth =
        AuthContexts.of(
            Map.of(ActionContext.PRINCIPAL, "carol", "tenant", "none"),
            List.of(sameCaller, noPrincipal),
            REQUEST);

    assertThat(auth)
        .containsEntry(ActionContext.PRINCIPAL, "carol")
        .containsEntry("tenant", "acme")
        .containsEntry("plan", "gold");
  }

  @Test
  void aProviderThatNamesAnotherCallerThanTheBoundOneIsRefused() {
    ContextProvider alice = request -> Map.of(ActionContext.PRINCIPAL, "alice");

    assertThatThrownBy(
            () ->
                AuthContexts.of(Map.of(ActionContext.PRINCIPAL, "carol"), List.of(alice), REQUEST))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.PERMISSION_DENIED));
    assertThat(AuthContexts.of(null, List.of(alice), REQUEST))
        .as("without a bound principal, the provider's binds")
        .containsEntry(ActionContext.PRINCIPAL, "alice");
  }

  @Test
  void aBoundPrincipalThatIsNotANonEmptyStringIsRefused() {
    for (Object principal : List.of(42, "", "a\uD800")) {
      assertThatThrownBy(
              () -> AuthContexts.of(Map.of(ActionContext.PRINCIPAL, principal), List.of(), REQUEST))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.INTERNAL);
                assertThat(e.getMessage())
                    .contains("the server's own authentication")
                    .doesNotContain("context provider");
              });
    }
  }
}
