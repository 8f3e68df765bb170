/** middleware */
@NullMarked
package dev.baton.middleware;

import org.jspecify.annotations.NullMarked;
