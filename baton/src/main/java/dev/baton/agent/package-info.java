/** agent */
@NullMarked
package dev.baton.agent;

import org.jspecify.annotations.NullMarked;
