/**
 * The entry point: {@link dev.baton.Baton}, an instance with its registry, plugins and the calls
 * (generate, flows, agents) that run against it.
 */
@NullMarked
package dev.baton;

import org.jspecify.annotations.NullMarked;
