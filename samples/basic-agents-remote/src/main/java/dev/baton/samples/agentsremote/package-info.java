/**
 * The basic-agents-remote sample: Genkit's sample orchestrator, which gives each part of a question
 * to a researcher served over HTTP, in the background, then combines the answers.
 */
@NullMarked
package dev.baton.samples.agentsremote;

import org.jspecify.annotations.NullMarked;
