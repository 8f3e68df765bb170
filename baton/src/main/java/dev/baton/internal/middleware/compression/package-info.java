/**
 * Baton's own implementation of {@code dev.baton.middleware.compression}: not part of the API, and
 * not exported by the module. Nothing here is meant to be named by applications; it may change in
 * any release.
 */
@NullMarked
package dev.baton.internal.middleware.compression;

import org.jspecify.annotations.NullMarked;
