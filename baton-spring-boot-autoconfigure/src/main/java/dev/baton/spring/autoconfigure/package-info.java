/**
 * Baton in a Spring Boot 4 application. With {@code baton-spring-boot-starter} on the class path,
 * the application gets a {@link dev.baton.Baton} bean configured by the {@code baton.*} properties
 * ({@link dev.baton.spring.autoconfigure.BatonProperties}), a {@code SessionStore} bean chosen from
 * what the application has, and its agents and flows served in Genkit's wire format on the
 * application's own servlet container. Declare agents as beans that take the {@code Baton} and the
 * {@code SessionStore}; adjust the builder with a {@link
 * dev.baton.spring.autoconfigure.BatonCustomizer}.
 *
 * <p>In a servlet web application the agents and flows are served under {@code
 * baton.server.base-path} ({@code /baton}): {@code /baton/agents/<name>} with its {@code
 * getSnapshot}, {@code waitForSnapshot} and {@code abort} companions, and {@code
 * /baton/flows/<name>}. With Spring Security the authenticated user is Baton's principal, so
 * sessions belong to their user; without it, {@code ContextProvider} beans authenticate requests.
 * See {@link dev.baton.spring.autoconfigure.BatonServerAutoConfiguration}.
 *
 * <p>The module has no {@code module-info}: Spring Boot applications run on the class path, and
 * Spring's own jars are automatic modules. Its manifest names the automatic module {@code
 * dev.baton.spring.autoconfigure}.
 */
@NullMarked
package dev.baton.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
