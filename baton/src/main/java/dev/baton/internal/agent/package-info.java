/**
 * Baton's own implementation of {@code dev.baton.agent}: not part of the API, and not exported by
 * the module. Nothing here is meant to be named by applications; it may change in any release.
 */
@NullMarked
package dev.baton.internal.agent;

import org.jspecify.annotations.NullMarked;
