/**
 * Genkit's developer tools for Baton: {@link dev.baton.devtools.DevTools} serves Genkit's
 * reflection API, so that {@code genkit start -- <java command>} and the Developer UI list, run and
 * trace a Baton instance's actions.
 *
 * <pre>{@code
 * Baton baton = Baton.builder().openTelemetry(BatonTelemetry.fromEnvironment()).build();
 * DevTools.start(baton); // serves only when GENKIT_ENV=dev
 * }</pre>
 */
@NullMarked
package dev.baton.devtools;

import org.jspecify.annotations.NullMarked;
