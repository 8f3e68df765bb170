/**
 * Context compression: {@link dev.baton.middleware.compression.ContextCompression} keeps a
 * conversation inside a context budget by deduplicating, truncating, summarising or dropping older
 * messages, and records its work in the history's metadata as Genkit does.
 *
 * <p><b>Experimental</b>, as Genkit's {@code exp} packages are: it may change in any release. Only
 * an instance built with {@code Baton.builder().experimental()} registers it by name ({@code
 * genkit-middleware-exp/contextCompression}).
 */
@NullMarked
package dev.baton.middleware.compression;

import org.jspecify.annotations.NullMarked;
