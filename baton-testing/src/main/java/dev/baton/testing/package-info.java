/**
 * Test support for Baton applications and for Baton itself: a {@link
 * dev.baton.testing.ProgrammableModel} that plays scripted responses, the tools Genkit's
 * conformance suites expect, and access to those suites.
 */
@NullMarked
package dev.baton.testing;

import org.jspecify.annotations.NullMarked;
