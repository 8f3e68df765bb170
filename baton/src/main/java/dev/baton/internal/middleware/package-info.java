/**
 * Baton's own registration of the bundled middleware by name: not part of the API, and not exported
 * by the module. Nothing here is meant to be named by applications; it may change in any release.
 */
@NullMarked
package dev.baton.internal.middleware;

import org.jspecify.annotations.NullMarked;
