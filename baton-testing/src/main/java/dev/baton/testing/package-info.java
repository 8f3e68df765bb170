/**
 * Test support for Baton applications and for Baton itself: a {@link
 * dev.baton.testing.ProgrammableModel} that plays scripted responses, the tools Genkit's
 * conformance suites expect, and access to those suites; contract tests for session stores ({@link
 * dev.baton.testing.SessionStoreContract}) and for HTTP model plugins ({@link
 * dev.baton.testing.ModelPluginContract}), with the {@link dev.baton.testing.FakeHttpServer}, the
 * {@link dev.baton.testing.WeatherTool} and the {@link dev.baton.testing.LiveModelCheck} a plugin's
 * own tests use.
 */
@NullMarked
package dev.baton.testing;

import org.jspecify.annotations.NullMarked;
