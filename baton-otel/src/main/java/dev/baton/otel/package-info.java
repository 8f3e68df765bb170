/**
 * OpenTelemetry export for Baton: {@link dev.baton.otel.BatonTelemetry} is the OpenTelemetry SDK,
 * set up to send spans with Genkit's attributes to the Genkit CLI's telemetry server (live, as
 * {@code genkit start} asks) and spans and GenAI metrics to any OTLP endpoint.
 *
 * <pre>{@code
 * BatonTelemetry telemetry = BatonTelemetry.fromEnvironment();
 * Baton baton = Baton.builder().openTelemetry(telemetry).build();
 * }</pre>
 */
@NullMarked
package dev.baton.otel;

import org.jspecify.annotations.NullMarked;
