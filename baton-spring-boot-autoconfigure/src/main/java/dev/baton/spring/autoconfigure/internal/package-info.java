/** The auto-configuration's helpers; not an API: types here change without notice. */
@NullMarked
package dev.baton.spring.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
