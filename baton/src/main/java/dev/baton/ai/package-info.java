/** ai */
@NullMarked
package dev.baton.ai;

import org.jspecify.annotations.NullMarked;
