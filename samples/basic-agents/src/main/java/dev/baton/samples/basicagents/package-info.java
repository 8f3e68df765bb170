/**
 * The basic-agents sample: a coordinator that delegates to a researcher and a coder and reads their
 * work back through session artifacts, in a terminal chat.
 */
@NullMarked
package dev.baton.samples.basicagents;

import org.jspecify.annotations.NullMarked;
