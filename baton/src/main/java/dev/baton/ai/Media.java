package dev.baton.ai;

import org.jspecify.annotations.Nullable;

/** Media referenced by URL: an {@code https:}, {@code gs:} or {@code data:} URL and its type. */
public record Media(String url, @Nullable String contentType) {}
