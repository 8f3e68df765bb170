/**
 * Genkit's developer tools for Baton: {@link dev.baton.devtools.DevTools} serves Genkit's
 * reflection API, so that {@code genkit start -- <java command>} and the Developer UI list, run and
 * trace a Baton instance's actions.
 *
 * <pre>{@code
 * Baton baton = Baton.builder().openTelemetry(BatonTelemetry.fromEnvironment()).build();
 * DevTools.start(baton); // serves only when GENKIT_ENV=dev
 * }</pre>
 *
 * <p>{@code genkit start -- java ...} runs the command without a shell, with the {@code java} on
 * the CLI's own {@code PATH}, which must be Java 21 or newer: an older one (a system's default Java
 * 17, say) stops at once with an {@code UnsupportedClassVersionError}. Give the path of a newer one
 * ({@code genkit start -- "$JAVA_HOME/bin/java" ...}) or put it first on the {@code PATH}.
 */
@NullMarked
package dev.baton.devtools;

import org.jspecify.annotations.NullMarked;
