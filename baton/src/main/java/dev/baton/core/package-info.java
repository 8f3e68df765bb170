/** core */
@NullMarked
package dev.baton.core;

import org.jspecify.annotations.NullMarked;
