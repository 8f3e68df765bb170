/**
 * The auto-configuration's helpers: how the plugins find their keys, how beans made outside the
 * {@link dev.baton.Baton} instance join its registry, the instance's lifecycle in the context, the
 * choice of the session store, and the serving of the wire protocol on the servlet container. Not
 * part of the API: applications name none of these types.
 */
@NullMarked
package dev.baton.spring.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
